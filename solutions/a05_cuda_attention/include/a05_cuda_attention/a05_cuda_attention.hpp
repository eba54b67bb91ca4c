// a05_cuda_attention — the whole contract. Read-only for students: the
// grader re-copies it before building a submission.
#pragma once

#include "a05_cuda_attention/cuda_attention.hpp"
