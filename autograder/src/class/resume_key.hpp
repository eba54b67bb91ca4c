// grade-all's resume key (resume_key.cpp, with submission_hash and
// grading_fingerprint of class/grade_all.hpp): a submission is graded again
// only when its key differs from the one its last report was graded under
// (<student>/graded.hash).
#pragma once

#include <string>

#include "class/grade_all.hpp"

namespace rooflab::class_grading {

// What decides "unchanged" beside the content and the student's seed: the
// labs, the grading side (grading_fingerprint) and the deadline, and whether a
// sandbox was required. Throws what grading_fingerprint throws.
std::string grading_settings(const GradeAllOptions& options);

// The key of one grading: the submission's content hash (submission_hash, or
// the commit a deadline picked), the settings and the student's seed ("drawn"
// without --seed). Empty when the content hash is: then it is always graded.
std::string resume_key(const std::string& content_hash, const std::string& settings, const std::string& seed);

}  // namespace rooflab::class_grading
