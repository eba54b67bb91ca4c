// a01_roofline — the whole contract. Read-only for students: the grader
// re-copies it before building a submission.
#pragma once

#include "a01_roofline/attention_cost.hpp"
#include "a01_roofline/gpu_catalog.hpp"
#include "a01_roofline/inference.hpp"
#include "a01_roofline/memory.hpp"
#include "a01_roofline/roofline.hpp"
