#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "rebirth/goal.h"
#include "rebirth/move.h"
#include "rebirth/position.h"
#include "rebirth/problem.h"
#include "rebirth/solution.h"

namespace rebirth {

// Popeye's header for a problem, in the problem's language, exactly as `py -regression`
// prints it: the remarks, the underworld and the notes of the stipulation modifiers (options
// that do not apply), then (unless NoBoard) the centred
// author/origin/award/title lines, the board (for a=>b: position a, the starter, then b),
// the stipulation line with the piece count, and the centred attribute, condition and
// option lines, and without twins the notes of the solving machinery. Ends with the '\n' of
// its last line; the empty line that follows it in Popeye's output belongs to the solution.
std::string format_header(const Problem& problem);

// The board diagram alone, Popeye style: an empty line, then the framed 8x8 diagram.
std::string format_board(const Problem& problem);
std::string format_board(const std::array<Piece, SQUARE_NB>& board, Language language);

// The condition lines Popeye writes for `conditions` (not centred, no '\n'), in Popeye's
// order, with the qualifying words in Popeye's order and in `language`.
std::vector<std::string> format_condition_lines(const std::vector<Condition>& conditions, Language language);

// `line` centred the way Popeye centres header lines in its 37-column diagram, with '\n'.
std::string centre_line(std::string_view line);

// Popeye's twin announcement for twin `index` (0 = "a) ", the diagram unless a ZeroPosition
// comes first), without '\n': "b) Circe Clone  ", continued twins "+c) ...".
std::string format_twin_line(const Problem& problem, size_t index);

// What Popeye writes for twin `index` of `problem` before its solution, `twin` being that twin
// (apply_twin): the notes of its stipulation modifiers when the twin sets a stipulation, an
// empty line, its announcement (format_twin_line), then the notes of its solving machinery
// (Problem::notes, e.g. "SetPlay not applicable - ignored").
std::string format_twin_intro(const Problem& problem, const Problem& twin, size_t index);

// The notes of Popeye's solving machinery for `problem` (Problem::notes: SetPlay, Intelligent,
// Threat), one a line, in its language; Popeye writes them after the header and again before
// the second play of a Duplex.
std::string format_solving_notes(const Problem& problem);

// How Popeye numbers one line of help or series play: the side whose moves carry the move
// numbers; whether the line opens with "1..." (set play, or a first move of the side not
// numbered; the next number is then 2); and for intro play (n->) the index of the main
// play's first move, where the numbering restarts at 1 with `restart_numbered`'s moves.
struct PlayLineStyle {
    Color numbered = WHITE;
    bool dots = false;
    // Set play of help play whose actual play starts with a move of the side not numbered
    // (h#2.5): that move is left out as "1...  ..." and the line goes on at "2." (implies dots).
    bool skipped = false;
    int restart = -1;  // none
    Color restart_numbered = WHITE;
};

// One line of help or series play as Popeye prints it, starting with its line break:
// "\n  1.Kd5-e4 Qa1-d1   2.Ke4-f3 Qd1-f1 #". `root` is the position the play starts from
// (its side to move plays moves[0]); a null move is a pass of the side to move (series
// play); check marks follow each move that gives check except the last one where goal's mark
// replaces them, and the last move carries goal's mark.
std::string format_play_line(const Position& root, const std::vector<Move>& moves, const PlayLineStyle& style,
                             Language lang, Goal goal);

// Popeye's text of one block of battle play from its tree (solution.h): a key ("\n   1.X !"
// with the play below it when shown, or " !\n"), a try (" ?", its play when shown, "but"
// and the refutations), set play (the defences with their play), the play after an absent
// key (PostKeyPlay: a line end unless the defender must reach the goal at once, then the
// defences, refutations marked "refutes."), or `obliged` moves of a reflex attacker (" ?!?").
// `pos`: the position of the root (the attacker to move; for set play and PostKeyPlay the
// defender). Threat and zugzwang words in `lang`; goal's mark after each move that reaches it.
std::string format_battle_block(const Position& pos, const PlayNode& root, Goal goal, Language lang);
std::string format_battle_obliged(const Position& pos, const std::vector<PlayNode>& obliged, Goal goal, Language lang);

// The move number Popeye writes before half-move h of battle play's tree (0 = the key): "1."
// for an attacker's move, "1..." for a defence, "2." ...
std::string battle_move_number(int h);

// Appends one move of such a line: its number ("%3d.", then counting on) when `numbered`, the
// move in `lang`, and " +" when it gives check and `check_mark`; plays the move on pos.
void append_line_move(std::string& line, Position& pos, const Move& m, Language lang, bool numbered, int& number,
                      bool check_mark);

}  // namespace rebirth
