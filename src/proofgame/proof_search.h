#pragma once

// Internal interface of the proof-game solver (solve_proof.cpp) for its split
// (proof_split.cpp). Not a public header.

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "rebirth/move.h"
#include "rebirth/proof_bound.h"
#include "rebirth/proof_split.h"
#include "solve/solve_internal.h"

namespace rebirth {

// Whether every square of pos holds the target's unit as Popeye's proof-game comparison sees
// it: walk, colour and declared attributes (the "promoted" mark is play history, not part of
// a unit).
bool board_matches(const Position& pos, const Board& target);
// An exact, collision-free encoding of everything that decides the play from `pos`: units
// with their attributes, side to move, castling, en passant and, under rebirth rules, the
// diagram origins and the waiting (Parrain, buried) units. Written into `k` (its old contents
// replaced, its storage kept).
void position_code(const Position& pos, std::string& k);

class ExactSet;
class RebirthBound;
struct ProofCaches;
class ProofFailures;

// Series proof games (series_proof.cpp): ser-dia n and ser-a=>b n. The side to move at the
// start (each half of a duplex in turn) makes n moves or fewer, the other side passing, and
// reaches the diagram with its last move. ProofTwinSearch solves them as plays whose lengths
// count the series side's moves, their lines holding those moves alone.

// Appends to `lines` every line of exactly `moves` moves of the side to move in `from` (its
// opponent passing after each move but the last, so no move but the last gives check) that
// reaches `target` with its last move and not before, in Popeye's order, as the series
// side's moves. `limit_left` (0: none) counts down the lines still wanted and sets `stopped`
// when it runs out. Without a limit the first moves are searched on ctx.threads, their lines
// joined in move order. `shared` (when given) keeps the failure facts for later searches of
// the play; `follow` (when given) restricts the search to that line's moves, with every
// bound of the full search (then on one thread, and `shared` must be null).
void series_proof_lines(const SolveContext& ctx, const Board& target, const Position& from, int moves, long& limit_left,
                        bool& stopped, std::vector<MoveLine>& lines, ProofFailures* shared,
                        const MoveLine* follow = nullptr);
// The game of a series line: its moves with a pass (null move) between each two.
MoveLine series_game(const MoveLine& moves);
// Popeye's text of the series line `moves` from `start` (its side to move the series side):
// "\n  1.Sg1-f3   2.e2-e3   3.Sf3-g1 dia", each move numbered.
std::string series_line_text(Position start, const MoveLine& moves, Language lang, const char* mark);

// Failure facts shared by the searches of one play of one twin (every length and prefix):
// the positions from which no line of r more half-moves reaches the target, kept per r up
// to the play's longest length. Sound across searches: a fact depends only on the position,
// r, the target and the side that makes the last move, which the lengths of a play share.
// Safe to use from several threads at once; entries are never removed.
class ProofFailures {
  public:
    explicit ProofFailures(int longest);
    ~ProofFailures();
    ProofFailures(const ProofFailures&) = delete;
    ProofFailures& operator=(const ProofFailures&) = delete;
    // The table of positions `remaining` half-moves from the end (null beyond the longest).
    ExactSet* at(int remaining) const;
    // A set of the bounds' caches for one search of the play (its target and rebirth bound),
    // one given back by an earlier search when there is one: their values depend only on the
    // position, the target and the rules, which the searches of a play share. Give it back
    // with release().
    std::unique_ptr<ProofCaches> acquire(const Board& target, const RebirthBound* bound);
    void release(std::unique_ptr<ProofCaches> caches);

  private:
    std::vector<std::unique_ptr<ExactSet>> sets_;
    std::mutex mutex_;
    std::vector<std::unique_ptr<ProofCaches>> caches_;  // given back, for the next search
};

// The plays (phases) of one proof-game twin, set up exactly as solve_proof_game searches
// them: the start position per play, the target, the bounds that apply. In series play
// (ser-dia, ser-a=>b) a length, a depth and the moves of a line or prefix count the series
// side's moves alone: the other side passes after each of them (a prefix move that gives
// check or reaches the target ends the play), and the side that makes the last move is the
// series side. Keeps a reference to
// the context (and so to its problem, rules and position): keep them alive and in place.
// Its const functions may be called from several threads at once.
class ProofTwinSearch {
  public:
    struct Play {
        bool blocked = false;      // only an empty line: the opponent of the first mover is in
                                   // check, or (orthodox dia) no game reaches the diagram
        std::string note;          // the latter's reason, for SolveContext::notes
        Color first = WHITE;       // plays the first half-move and carries the move numbers
        std::vector<int> lengths;  // the lengths searched, shortest first (none when blocked)
    };

    // Whether solve_proof_game solves the stipulation of ctx.problem.
    static bool handles(const SolveContext& ctx);
    // Throws std::invalid_argument unless handles(ctx).
    explicit ProofTwinSearch(const SolveContext& ctx);
    ~ProofTwinSearch();
    ProofTwinSearch(const ProofTwinSearch&) = delete;
    ProofTwinSearch& operator=(const ProofTwinSearch&) = delete;

    // In output order: the play of the stipulation's side, then (duplex) the other side's.
    const std::vector<Play>& plays() const;

    // The solutions of `length` half-moves of play `play` that begin with `prefix` (shorter
    // than `length`; moves from the play's start), in the order solve_proof_game writes
    // them: their text appended to `text`, or with `lines` their moves after the prefix.
    // None when a move of the prefix by the side that makes the last move reaches the
    // target (the play ends there). `limit_left` (0: none) counts down the lines still
    // wanted and sets `stopped` when it runs out. Searches on ctx.threads and counts nodes
    // through ctx.control (which may throw SearchStopped); `call` (when given) replaces the
    // constructor's context for these (same problem, rules and position), so that calls
    // from several threads each have their own; `shared` (when given) keeps the failure
    // facts for later searches of the play. Throws std::invalid_argument for an illegal
    // prefix, a length not longer than it or no such play.
    void solve(int play, const MoveLine& prefix, int length, long& limit_left, bool& stopped, std::string* text,
               std::vector<MoveLine>* lines, const SolveContext* call = nullptr, ProofFailures* shared = nullptr) const;

    // Whether the search of play `play` for lines as long as `line` (a legal game from the
    // play's start) keeps it: the search restricted to the line's moves, with every bound and
    // move filter of the full search at each of its positions, finds it. False when the line
    // does not reach the target with its last move, or when a bound or filter would make the
    // full search miss it. Throws std::invalid_argument for no such play or an illegal or
    // empty line.
    bool keeps_line(int play, const MoveLine& line) const;

    // The positions after `depth` half-moves of play `play` (not blocked): each distinct
    // position once (position_code, the solver's exact key), in the order of the first prefix
    // that reaches it, with every prefix that reaches it; `order` lists every prefix in
    // generation order as (node, index in its prefixes). Prefixes where the side that makes
    // the last move reaches the target before their end are left out (the play ends
    // there). False (and what was found so far) when there are more than `max_prefixes`.
    bool frontier(int play, int depth, std::size_t max_prefixes, std::vector<ProofFrontierNode>& nodes,
                  std::vector<std::pair<int, int>>& order) const;

    // The text solve_proof_game writes for the solution `line` of play `play` (moves from
    // its start): "\n  1.e2-e4 e7-e5   2.Sg1-f3 dia". With `check` throws
    // std::invalid_argument when a move is not legal; without, the line must be one the
    // search found.
    std::string line_text(int play, const MoveLine& line, bool check = true) const;

    // The game of the solution `line` of play `play` as SolveReport::proof_games holds it:
    // the line itself, or in series play its moves with the other side's passes (null moves)
    // between them.
    MoveLine game(int play, const MoveLine& line) const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace rebirth
