// The python that runs the tools' PyTorch and transformers peers (torch_*.py,
// hf_*.py), shared by `rooflab bench` and `rooflab generate`, and how to run them.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace rooflab::bench {

// The first of these that imports torch: $ROOFLAB_PYTHON, the repository's
// .venv/bin/python3, python3 on PATH, /usr/bin/python3 (where Debian's
// python3-torch puts it, when PATH's python3 is another one). Nothing when
// none does. Importing torch takes a second or two: call it once per run.
std::optional<std::string> torch_python();

// What to do when torch_python() found nothing, in one sentence.
std::string how_to_get_torch();

// The peer script `name` (torch_attention.py, …) in tools/bench/ of the course
// tree this build was configured from, quoted for /bin/sh.
std::string peer_script(const std::string& name);

// `text` quoted for /bin/sh, so that paths with spaces survive popen().
std::string shell_quoted(const std::string& text);

// Runs `command` (a peer script and its arguments, quoted) under /bin/sh and
// hands each line it prints, without the newline, to `on_line`; its stderr
// passes through. TMPDIR is a private folder, removed when the command ends:
// torch leaves caches there (torchinductor_<user>), and a run leaves /tmp as
// it found it. Returns pclose()'s status, or -1 when it could not start.
int run_peer(const std::string& command, const std::function<void(const std::string& line)>& on_line);

}  // namespace rooflab::bench
