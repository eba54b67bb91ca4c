#include "rooflab/not_implemented.hpp"

namespace rooflab {

NotImplemented::NotImplemented(const std::string& function)
    : std::logic_error(function + " is not implemented yet (YOUR CODE HERE)"), function_(function) {}

void throw_not_implemented(const char* function) { throw NotImplemented(function); }

}  // namespace rooflab
