// The three Unicode character classes that GPT-2's pre-tokenisation pattern
// uses (\p{L}, \p{N} and \s), for the BPE tokenizer's hand-written matcher:
// std::regex has no Unicode classes. The tables behind them are generated
// (unicode_categories.cpp, by tools/checkpoints/make_unicode_table.py), so
// that a newer Unicode is one script run away.
#pragma once

namespace rooflab {

bool is_unicode_letter(char32_t code_point);  // general category L* (Lu, Ll, Lt, Lm, Lo)
bool is_unicode_number(char32_t code_point);  // general category N* (Nd, Nl, No)
bool is_unicode_space(char32_t code_point);   // the White_Space property, which \s means in regex and Oniguruma

}  // namespace rooflab
