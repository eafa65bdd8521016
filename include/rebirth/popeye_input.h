#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rebirth/problem.h"

namespace rebirth {

// What the parser does with bad input inside a problem.
enum class ParseMode {
    // Throw InputError at the first bad word of the file.
    Strict,
    // Record the error in that problem's Problem::error, skip to its NextProblem /
    // EndProblem (in the file's language) and go on with the next problem. Errors that make
    // the whole file unusable still throw: empty input, no BeginProblem first, a file that
    // cannot be read, a missing EndProblem at the end.
    Recover,
};

// Parses Popeye input (English, French or German keywords, case-insensitive, unique prefixes)
// holding one or more problems. Throws InputError naming file, line and word on bad input;
// the two-argument forms are ParseMode::Strict.
std::vector<Problem> parse_popeye(std::string_view text, const std::string& file_name);
std::vector<Problem> parse_popeye(std::string_view text, const std::string& file_name, ParseMode mode);
std::vector<Problem> parse_popeye_file(const std::string& path);
std::vector<Problem> parse_popeye_file(const std::string& path, ParseMode mode);

// Condition words as on a Popeye `Condition` line in English ("Circe Strict", "MarsCirce").
// Throws InputError naming `source` and the word that is not a condition.
std::vector<Condition> parse_condition_words(std::string_view words, const std::string& source);

// The problem as it stands for twin `index` (0 = the diagram, 1 = twin b), ...): the
// twinning operations applied to the diagram (or to the previous twin when continued).
Problem apply_twin(const Problem& problem, size_t index);

}  // namespace rebirth
