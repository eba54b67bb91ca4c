// a06_kv_cache_decode — the whole contract. Read-only for students: the
// grader re-copies it before building a submission.
#pragma once

#include "a06_kv_cache_decode/decode_attention.hpp"
#include "a06_kv_cache_decode/generate.hpp"
#include "a06_kv_cache_decode/kv_cache.hpp"
#include "a06_kv_cache_decode/sampling.hpp"
#include "a06_kv_cache_decode/transformer.hpp"
