#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rebirth/problem.h"

namespace rebirth {

// Parses Popeye input (English, French or German keywords, case-insensitive, unique prefixes)
// holding one or more problems. Throws InputError naming file, line and word on bad input.
std::vector<Problem> parse_popeye(std::string_view text, const std::string& file_name);
std::vector<Problem> parse_popeye_file(const std::string& path);

// Condition words as on a Popeye `Condition` line in English ("Circe Strict", "MarsCirce").
// Throws InputError naming `source` and the word that is not a condition.
std::vector<Condition> parse_condition_words(std::string_view words, const std::string& source);

// The problem as it stands for twin `index` (0 = the diagram, 1 = twin b), ...): the
// twinning operations applied to the diagram (or to the previous twin when continued).
Problem apply_twin(const Problem& problem, size_t index);

}  // namespace rebirth
