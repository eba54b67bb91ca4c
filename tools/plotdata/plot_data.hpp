// The data behind the course's figures, computed by the reference solutions:
// file name → CSV text. gnuplot templates in plots/templates/ render them.
#pragma once

#include <map>
#include <string>

namespace rooflab::plots {

using Files = std::map<std::string, std::string>;

// a02's figures: GPT-2 XL on the roofline, decode AI vs batch, the decode AI
// heat map, and T_compute vs T_memory for the four (B, N) cases.
void add_a02_data(Files& files);

// a03 and a04's figure: peak extra memory vs N for standard, linear (three
// forms) and flash attention.
void add_attention_data(Files& files);

}  // namespace rooflab::plots
