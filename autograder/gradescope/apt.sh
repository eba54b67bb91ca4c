# shellcheck shell=bash
# install_available PACKAGE...: for setup.sh (sourced, bash). Installs with
# apt the packages that are not installed yet and that this image's apt
# sources have; names each one they lack (Ubuntu 22.04 has no
# libtomlplusplus-dev) and leaves it to the build to say whether it can do
# without. lab's own bootstrap refuses the whole list instead. Never fails:
# the build after it is the judge.
install_available() {
  local package missing=() available=()
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  [ "${#missing[@]}" -gt 0 ] || return 0
  apt-get update -qq || echo "setup.sh: apt-get update failed: installing from the lists this image has"
  for package in "${missing[@]}"; do
    if apt-cache show "$package" >/dev/null 2>&1; then
      available+=("$package")
    else
      echo "setup.sh: $package is not in this image's apt sources: building without it"
    fi
  done
  [ "${#available[@]}" -gt 0 ] || return 0
  echo "setup.sh: installing ${available[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${available[@]}" ||
    echo "setup.sh: apt-get install failed: the build below says what it lacks"
  return 0
}
