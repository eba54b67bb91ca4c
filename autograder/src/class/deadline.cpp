#include "class/deadline.hpp"

#include <chrono>
#include <cstdio>

namespace rooflab {
namespace {

// `count` decimal digits at text[at], or -1.
int digits(const std::string& text, std::size_t at, std::size_t count) {
  if (at + count > text.size()) return -1;
  int value = 0;
  for (std::size_t i = at; i < at + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return -1;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

}  // namespace

std::optional<Deadline> parse_deadline(const std::string& text) {
  if (text.size() < 17 || text.size() > 40) return std::nullopt;
  const int year = digits(text, 0, 4), month = digits(text, 5, 2), day = digits(text, 8, 2);
  const int hour = digits(text, 11, 2), minute = digits(text, 14, 2);
  if (year < 1970 || month < 0 || day < 0 || hour < 0 || minute < 0 || text[4] != '-' || text[7] != '-' ||
      (text[10] != 'T' && text[10] != ' ') || text[13] != ':')
    return std::nullopt;
  std::size_t at = 16;
  int second = 0;
  if (at < text.size() && text[at] == ':') {
    second = digits(text, at + 1, 2);
    if (second < 0) return std::nullopt;
    at += 3;
    if (at < text.size() && text[at] == '.') {
      ++at;
      const std::size_t first = at;
      while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
      if (at == first) return std::nullopt;
    }
  }
  int offset_minutes = 0;
  if (at < text.size() && text[at] == 'Z') {
    ++at;
  } else if (at < text.size() && (text[at] == '+' || text[at] == '-')) {
    const int sign = text[at] == '+' ? 1 : -1;
    const int hours = digits(text, at + 1, 2);
    if (hours < 0) return std::nullopt;
    at += 3;
    int minutes = 0;
    if (at < text.size()) {
      if (text[at] == ':') ++at;
      minutes = digits(text, at, 2);
      if (minutes < 0) return std::nullopt;
      at += 2;
    }
    if (hours > 14 || minutes > 59) return std::nullopt;
    offset_minutes = sign * (hours * 60 + minutes);
  } else {
    return std::nullopt;  // no zone
  }
  if (at != text.size() || hour > 23 || minute > 59 || second > 59) return std::nullopt;
  const std::chrono::year_month_day date{std::chrono::year{year}, std::chrono::month{static_cast<unsigned>(month)},
                                         std::chrono::day{static_cast<unsigned>(day)}};
  if (!date.ok()) return std::nullopt;
  Deadline deadline;
  deadline.unix_seconds = std::chrono::sys_days{date}.time_since_epoch().count() * 86400ll + hour * 3600ll +
                          minute * 60ll + second - offset_minutes * 60ll;
  // Back to UTC's calendar, for the two spellings.
  const std::chrono::sys_seconds instant{std::chrono::seconds{deadline.unix_seconds}};
  const auto days = std::chrono::floor<std::chrono::days>(instant);
  const std::chrono::year_month_day utc_date{days};
  const std::chrono::hh_mm_ss<std::chrono::seconds> utc_time{instant - days};
  char utc[32], git[40];
  std::snprintf(utc, sizeof utc, "%04d-%02u-%02uT%02ld:%02ld:%02lldZ", static_cast<int>(utc_date.year()),
                static_cast<unsigned>(utc_date.month()), static_cast<unsigned>(utc_date.day()),
                static_cast<long>(utc_time.hours().count()), static_cast<long>(utc_time.minutes().count()),
                static_cast<long long>(utc_time.seconds().count()));
  std::snprintf(git, sizeof git, "%.10s %.8s +0000", utc, utc + 11);
  deadline.utc = utc;
  deadline.git = git;
  return deadline;
}

}  // namespace rooflab
