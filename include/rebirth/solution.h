#pragma once

#include <cstdint>
#include <vector>

#include "rebirth/move.h"
#include "rebirth/types.h"

// Solutions as data, as the solvers return them: the renderers (Popeye's text, PGN, JSON,
// HTML) and `rebirth verify` work from these, not from text.

namespace rebirth {

// One line of play from the position its play starts from: a proof game (from the game array
// or position a), a solution of help or series play (from the diagram), or the key of battle
// play (its one move).
struct PlayLine {
    int twin = 0;             // index of the twin (0 = a), or of the problem itself without twins)
    int play = 0;             // the play (phase) within the twin, in output order: set play, actual
                              // play, the halves of a duplex (proof games: 0, or 1 for Duplex's other)
    Color first = WHITE;      // the side that plays moves[0]
    std::vector<Move> moves;  // a null move: the side to move passes (the other side of series play)
    bool set_play = false;    // a line of set play (Option SetPlay), not a solution
    int restart = -1;         // introductory moves (n->): index in `moves` of the main play's first
                              // move, where the move numbers start again at 1; -1: none
    friend bool operator==(const PlayLine&, const PlayLine&) = default;
};

// A move of battle play's solution tree as Popeye shows it: at the root a key or a try, below
// a key or an attacker's continuation its threats (the attacker's moves after a pass of the
// defender) and the defences shown as variations, below a defence the attacker's
// continuations (every one that wins at the shortest length: more than one is a dual), and
// below a try its refutations. Roots without a move: set play and the play after an absent
// key (Option PostKeyPlay, its refutations among the defences), both with the defender to
// move; Obliged: a move with which a reflex attacker must reach the goal (and fails).
struct PlayNode {
    enum class Kind : std::uint8_t { Key, Try, Threat, Defence, Attack, Refutation, SetPlay, PostKey, Obliged };
    // What ends an attacker's line whose play is shown below it: None (no play shown), Line (a
    // line end: the defender is in check, or no threat is asked), Finished (the defender must
    // reach the goal now: its goal moves follow), Threat, Zugzwang.
    enum class Then : std::uint8_t { None, Line, Finished, Threat, Zugzwang };
    Kind kind = Kind::Key;
    Move move;
    std::vector<PlayNode> children;
    bool goal = false;  // the move reaches the goal (its mark replaces the check mark)
    Then then = Then::None;
    friend bool operator==(const PlayNode&, const PlayNode&) = default;
};

// One key or try of battle play with the play below it, in its twin and play.
struct PlayTree {
    int twin = 0;
    int play = 0;         // the play (phase) within the twin: the halves of a duplex
    Color first = WHITE;  // the attacker, who plays root.move
    PlayNode root;
    friend bool operator==(const PlayTree&, const PlayTree&) = default;
};

}  // namespace rebirth
