#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "rebirth/position.h"

namespace rebirth {

// What the last move of a play must achieve (Popeye's goals). A target-square goal ("zh7": the
// unit that moves ends the move on h7) is Target plus the square (target_goal).
enum class Goal : std::uint8_t {
    Mate,
    Stalemate,
    DoubleStalemate,
    Capture,
    Check,
    Any,
    EnPassant,        // "ep": the move is an en passant capture
    Castling,         // "00": the move is a castling
    MateOrStalemate,  // "#=": the side to move has no legal move (mated or stalemated)
    Unsupported,
    Target = 64,  // .. Target + 63: "z" and the square
};

// The target-square goal for square s, whether g is one, and its square.
constexpr Goal target_goal(Square s) { return Goal(int(Goal::Target) + int(s)); }
constexpr bool is_target_goal(Goal g) { return int(g) >= int(Goal::Target) && int(g) < int(Goal::Target) + 64; }
constexpr Square goal_target(Goal g) { return is_target_goal(g) ? Square(int(g) - int(Goal::Target)) : SQ_NONE; }

// The goal of a stipulation's goal text: "#", "=", "==", "x", "+", "~", "ep", "00", "#=", "z"
// and a square; Unsupported otherwise.
Goal goal_from_text(std::string_view text);

// Whether the side to move of `pos` has a legal move.
bool has_legal_move(const Position& pos);

// Whether the move just played (its undo record `u`, which holds it) reached goal g; `after`
// is the position after it (the mover's opponent to move). A target square is reached when the
// moving unit stands on it once every effect of the move is done (Popeye 4.104's
// goal_target: an Anti-Circe capturer reborn elsewhere has not reached it).
bool goal_reached(const Position& after, const UndoInfo& u, Goal g);

// Whether the side to move of `pos` can reach goal g with one move.
bool goal_reachable_in_one(const Position& pos, Goal g);

// Whether the side to move of `pos` has moves and every one of them reaches goal g.
bool goal_forced_in_one(const Position& pos, Goal g);

// Whether only a move giving check can reach goal g from `pos` and gives_check tells which
// moves can without playing them (mate and check goals; checks_foreseeable, movegen.h).
bool only_checks_reach(const Position& pos, Goal g);

// Popeye's mark after the move that reaches goal g in a solution line: " #", " =", " ==",
// " x", " +", " #=", " z"; none for "~" (any move), "ep" and "00".
std::string_view goal_mark(Goal g);

// Whether the goal's mark stands for (or excludes) the check mark on the last move.
bool goal_mark_replaces_check(Goal g);

}  // namespace rebirth
