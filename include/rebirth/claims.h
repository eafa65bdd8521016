#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rebirth/error.h"
#include "rebirth/problem.h"

// Problems with the solutions claimed for them, as `rebirth verify` and `rebirth cookcheck`
// read them (verify.h compares the claims with rebirth's solutions): a Popeye file of one
// problem with its claim after EndProblem, or a YAML file of problems in yacpdb's and Olive's
// layout.

namespace rebirth {

// The verdicts on a claim (verify.h), in the order reports count them.
inline constexpr const char* kClaimVerdicts[] = {"sound", "cooked", "dual", "missing", "unverified", "bad-input"};

// A problem with the solution claimed for it: a Popeye input file holding one problem, its
// EndProblem (in the file's language) followed by the claimed solution as Popeye prints it.
struct ClaimedProblem {
    std::string name;  // the file, and for a document of a YAML file "FILE:LINE" (its first line)
    Problem problem;
    std::string claimed;   // the text after the problem's end keyword
    int claimed_line = 0;  // the file line the claimed text starts on
    // A document that could not be read (read_claims): why, naming file, line and word;
    // `problem` is then empty.
    std::optional<InputError> error;
};

// Reads `path` as ClaimedProblem. Throws InputError (file, line, word) for unreadable or bad
// Popeye input and for a file with more than one problem.
ClaimedProblem read_claimed_problem(const std::string& path);

// The claimed problems of a YAML file (.yaml, .yml) in yacpdb's and Olive's layout, one a
// document: `algebraic` (`white`, `black`: lists of units in Popeye's English codes, "Sb1"),
// `stipulation` ("#2", "h#3", "dia4.5"; "PG 4.5" is read as dia4.5), `options` (each a Popeye
// condition, or else a Popeye option), `twins` (each a Popeye twinning, "Remove a7"),
// `authors`, `source` (its `name`) and `solution` (the claim, as verify_claimed reads it).
// Throws InputError naming the file, the document's line and the word for a YAML error or a
// field Popeye cannot read (on the line of that field).
std::vector<ClaimedProblem> read_claimed_yaml(const std::string& path);

// The claimed problems of a file: read_claimed_yaml for .yaml and .yml, else
// read_claimed_problem. A document (or file) that cannot be read comes back with its `error`
// and the others are read on; never throws.
std::vector<ClaimedProblem> read_claims(const std::string& path);

}  // namespace rebirth
