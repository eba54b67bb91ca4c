// a04_flash_attention — the whole contract. Read-only for students: the
// grader re-copies it before building a submission.
#pragma once

#include "a04_flash_attention/flash_attention.hpp"
#include "a04_flash_attention/flash_memory.hpp"
