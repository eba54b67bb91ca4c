// a07_associative_recall — the whole contract. Read-only for students: the
// grader re-copies it before building a submission.
#pragma once

#include "a07_associative_recall/adam.hpp"
#include "a07_associative_recall/attention.hpp"
#include "a07_associative_recall/loss.hpp"
#include "a07_associative_recall/model.hpp"
#include "a07_associative_recall/recall_task.hpp"
#include "a07_associative_recall/train.hpp"
