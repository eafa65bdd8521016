#pragma once

#include <string>
#include <vector>

#include "rebirth/problem.h"
#include "rebirth/retractor.h"
#include "rebirth/retro.h"
#include "rebirth/rules.h"

// Retro problems of Popeye-style files (Stipulation lastmoves N / lastmove): each twin
// answered by last_moves(), and the renderers of an answer.

namespace rebirth {

// What a retro problem's analysis found. `text` is what `rebirth solve` prints after the
// problem's header: per twin its twin line (with twins), then retro_text of its answer;
// it ends with two blank lines.
struct RetroProblemReport {
    std::string text;
    bool supported = true;  // every twin has a retro stipulation
    // "unique" when every twin has one sequence, "none" when a twin has none, else
    // "unresolved"; empty when not supported.
    std::string verdict;
    std::string side;                                 // the side that moved last: "w", "b" or "both" (the last twin's)
    std::vector<std::vector<std::string>> solutions;  // every twin's sequences, janko notation
};

// A retro problem cut into items for a cluster: per twin (apply_twin order, ZeroPosition
// respected) and per side asked, the retraction prefixes of length k (n = 1: the
// retractions, every one generate_unmoves gives) in order, `chunk` consecutive prefixes an
// item (the last item of a side may hold fewer).
struct RetroPlan {
    struct Side {
        Color moved_last = WHITE;
        int prefixes = 0;
        int items = 0;  // ceil(prefixes / chunk)
    };
    struct Twin {
        std::string line;    // Popeye's twin line ("" without twins)
        bool retro = false;  // its stipulation is lastmoves N (else `message` says it is not)
        std::string message;
        int n = 0;               // single moves asked (a retractor: White's retractions)
        bool retractor = false;  // a defensive retractor: one side (White), its first choices as prefixes
        std::vector<Side> sides;
    };
    int k = 1;      // prefix length (the same for every twin; at most each twin's n)
    int chunk = 1;  // prefixes an item
    std::vector<Twin> twins;
};

// Plans `p` for about `target` items: prefixes of length k, the given one (a resumed run
// keeps its journaled plan) or else the shortest (up to the smallest n of the twins) that
// gives at least `target` prefixes in all, not going to a length with more than
// `max_prefixes`; then `chunk` prefixes an item (given, or as many as make about `target`
// items). Throws InputError as solve_retro_problem, std::invalid_argument for a k above a
// twin's n.
RetroPlan plan_retro(const Problem& p, int target, int max_prefixes = 20000, int k = 0, int chunk = 0);

// The prefixes the items of side `side` of twin `twin` are cut from, for prefix length k
// (n = 1: every retraction generate_unmoves gives, one a prefix), in plan order: what
// retro_item_fragment works out when not given them. Throws std::invalid_argument when the plan
// has no such side.
std::vector<std::vector<UnMove>> retro_side_prefixes(const Problem& p, int k, int twin, int side);

// What one item of a retro plan found, as data. Last moves: its sequences (the last move
// first), in possible_last_moves' order. A defensive retractor: how many of its first choices
// are keys and how many are not settled, and their first retractions with the trees below
// them (RetractorStep; the texts need not be filled in: assemble_retro writes them again).
struct RetroFragment {
    std::vector<std::vector<UnMove>> sequences;
    int key_choices = 0;
    int unresolved_choices = 0;
    std::vector<RetractorStep> keys;
    std::vector<RetractorStep> unresolved;
    friend bool operator==(const RetroFragment&, const RetroFragment&) = default;
};

// The fragment of item `item` of side `side` of twin `twin` of a plan with prefix length k and
// `chunk` prefixes an item, on `threads`; `prefixes`, when given, are retro_side_prefixes of
// that side (a caller answering several items of one side keeps them). `max_seconds` (0:
// none) limits a defensive retractor's search as in solve_retro_problem. Throws
// std::invalid_argument when the plan has no such item.
RetroFragment retro_item_fragment(const Problem& p, int k, int chunk, int twin, int side, int item, int threads,
                                  const std::vector<std::vector<UnMove>>* prefixes = nullptr, double max_seconds = 0);

// The text solve_retro_problem gives for `p`, from the fragments of every item of `plan`
// (fragments[twin][side][item]), and the verdict (see RetroProblemReport; `solutions` left
// empty, the count in `count`). Every retraction is checked to be one of the un-moves of the
// position it is taken back from, a sequence to have the twin's length, and a retractor's
// forward moves to be legal (render_retractor_step): data that does not fit `p` throws
// std::invalid_argument, as does a plan of other twins, sides or items. With `checked` the
// sequences were checked already (check_retro_fragment) and are only written.
struct RetroAssembly {
    std::string text;
    std::string verdict;
    bool supported = true;
    int count = 0;
};
RetroAssembly assemble_retro(const Problem& p, const RetroPlan& plan,
                             const std::vector<std::vector<std::vector<RetroFragment>>>& fragments,
                             bool checked = false);

// A retro problem answered whole as one item per side: the plan with prefixes of one
// retraction, each side's prefixes in one item (no item for a side without any), and
// (solve_whole_retro) the fragment of each such item, [twin][item of side]: what a cluster
// worker answers for a retro problem it was given whole. assemble_retro of the two gives
// solve_retro_problem's text.
RetroPlan whole_retro_plan(const Problem& p);
std::vector<std::vector<std::vector<RetroFragment>>> solve_whole_retro(const Problem& p, int threads,
                                                                       double max_seconds = 0);

// Checks one item's fragment as assemble_retro does (side `side` of twin `twin` of `plan`);
// throws std::invalid_argument when it does not fit.
void check_retro_fragment(const Problem& p, const RetroPlan& plan, int twin, int side, const RetroFragment& fragment);

// Analyzes every twin of `p` (its stipulation lastmoves N) on `threads` (0: all cores): the
// side that moved last from WhiteToPlay (Black) / BlackToPlay (White), else both; RetroDepth
// single moves further back to refute (default 3). A twin whose stipulation is no retro one
// gets a line saying so (supported false). `max_seconds` (0: none) limits each defensive
// retractor's search (retractor.h: first retractions left unsettled). Throws InputError when a twin's conditions have
// no retro analysis (naming the file and the conditions' line) or its diagram is bad.
RetroProblemReport solve_retro_problem(const Problem& p, int threads, double max_seconds = 0);

// The answer as `rebirth retro` prints it: per side asked "White moved last: K possible
// last moves" (n = 1, each move with its type) or "... possible sequences of n single
// moves", the sequences (the last move first) one a line, then "verdict: V".
std::string retro_text(const LastMovesAnswer& answer, int n, const RuleSet* rules);

// The sequences of `answer`, each retraction in janko notation (janko_notation).
std::vector<std::vector<std::string>> retro_solutions(const LastMovesAnswer& answer, const RuleSet* rules);

// Why retro analysis refuses `rules` (unmoves_supported is false).
std::string retro_unsupported(const RuleSet& rules);

}  // namespace rebirth
