#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "rebirth/position.h"

namespace rebirth {

// What the last move of a play must achieve (Popeye's goals).
enum class Goal : std::uint8_t { Mate, Stalemate, DoubleStalemate, Capture, Check, Any, Unsupported };

// The goal of a stipulation's goal text: "#", "=", "==", "x", "+", "~"; Unsupported otherwise.
Goal goal_from_text(std::string_view text);

// Whether the side to move of `pos` has a legal move.
bool has_legal_move(const Position& pos);

// Whether the move just played (its undo record `u`) reached goal g; `after` is the position
// after it (the mover's opponent to move).
bool goal_reached(const Position& after, const UndoInfo& u, Goal g);

// Whether the side to move of `pos` can reach goal g with one move.
bool goal_reachable_in_one(const Position& pos, Goal g);

// Whether the side to move of `pos` has moves and every one of them reaches goal g.
bool goal_forced_in_one(const Position& pos, Goal g);

// Whether only a move giving check can reach goal g from `pos` and gives_check tells which
// moves can without playing them (mate and check goals; checks_foreseeable, movegen.h).
bool only_checks_reach(const Position& pos, Goal g);

// Popeye's mark after the move that reaches goal g in a solution line: " #", " =", " ==",
// " x", " +"; none for "~" (any move).
std::string_view goal_mark(Goal g);

// Whether the goal's mark stands for (or excludes) the check mark on the last move.
bool goal_mark_replaces_check(Goal g);

}  // namespace rebirth
