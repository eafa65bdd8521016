#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "rebirth/problem.h"

namespace rebirth {

// Limits on solving one problem.
struct SolveLimits {
    double max_seconds = 0;  // 0: no time limit (--maxtime)
    bool show_time = false;  // append Popeye's " Time = ..." to the closing line (not in -regression mode)
};

// What solving one problem produced: Popeye's text and a summary for --json.
struct SolveReport {
    std::string text;                 // everything after the header (as solve_problem)
    bool supported = true;            // every twin's stipulation has a solver
    bool partial = false;             // MaxSolutions / StopOnShortSolutions cut the search
    bool timed_out = false;           // the time limit stopped the search
    int solutions = 0;                // keys of direct play, lines of help/series play and proof games
    std::vector<int> twin_solutions;  // the same per twin (a), b), ...)
    std::uint64_t nodes = 0;          // positions searched
    double seconds = 0;
    // "solved", "cooked", "no-solution", "timeout", "partial" or "unsupported".
    std::string status() const;
};

// Solves every twin of `p` (see solve_problem) within `limits`; `nodes` (when given) counts
// the positions searched as the search goes, for a progress display.
// `root_done` / `root_total` (when given) show how many root moves of the current play are
// searched.
SolveReport solve_problem_report(const Problem& p, int threads, const SolveLimits& limits,
                                 std::atomic<std::uint64_t>* nodes = nullptr, std::atomic<int>* root_done = nullptr,
                                 std::atomic<int>* root_total = nullptr);

// Everything Popeye prints after the header (format_header) for one problem: for each twin
// its twin line, the solution lines with Popeye's blank lines, then "solution finished."
// (or "Partial solution" when MaxSolutions/StopOnShortSolutions cut the search), in the
// problem's language. A twin whose stipulation no solver handles gets one line saying so;
// *all_supported (when given) is then set to false. Throws InputError (naming the
// problem's file and line) when the conditions or the diagram are not playable.
std::string solve_problem(const Problem& p, int threads = 0, bool* all_supported = nullptr);

}  // namespace rebirth
