// a03_attention_memory — the whole contract. Read-only for students: the
// grader re-copies it before building a submission.
#pragma once

#include "a03_attention_memory/linear_attention.hpp"
#include "a03_attention_memory/memory.hpp"
#include "a03_attention_memory/standard_attention.hpp"
