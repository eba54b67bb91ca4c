// a02_transformer_costs — the whole contract. Read-only for students: the
// grader re-copies it before building a submission.
#pragma once

#include "a02_transformer_costs/components.hpp"
#include "a02_transformer_costs/model.hpp"
#include "a02_transformer_costs/models.hpp"
#include "a02_transformer_costs/parameters.hpp"
#include "a02_transformer_costs/timing.hpp"
