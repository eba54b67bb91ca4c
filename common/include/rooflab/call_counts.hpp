// How many times provided code was called: a06's transformer counts step()
// and full_logits(), so that a test can tell a decode loop that uses the KV
// cache from one that recomputes every prefix. Tests read the counts through
// rooflab/worker_report.hpp; student code may not call these (the grader's
// symbol checks refuse it).
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace rooflab {

// One more call of `what` (a name such as "a06_kv_cache_decode::step").
void count_call(const char* what);
// The counts since the last take, by name; starts them again from zero.
std::map<std::string, std::uint64_t> take_call_counts();

}  // namespace rooflab
