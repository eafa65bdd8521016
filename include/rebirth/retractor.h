#pragma once

#include <string>
#include <vector>

#include "rebirth/move.h"
#include "rebirth/rules.h"
#include "rebirth/setup.h"
#include "rebirth/unmove.h"

// Defensive retractors ("-n & #1", "-n & s#1", "-n & =1"): White retracts n moves, Black one
// after each White retraction but the last, trying to defend; then White reaches the aim with
// one forward move. Definitions (PDB keywords S0000032 "Defensive Retractor, Type Proca" and
// S0000018 "Type Høeg"; Julia's Fairies, No. 619.1, definitions):
// - Proca: the retracting side decides whether its retraction uncaptured a unit, and which.
// - Høeg: the retracting side chooses its unit and the square it comes back to; the other
//   side then decides whether that was a capture and which of its units comes back (where the
//   rules leave a choice: a diagonal pawn retraction must uncapture).
// - Klan: White decides every uncapture (its own retractions as in Proca, Black's as the
//   other side in Høeg). Pacific: no uncaptures at all (Julia's Fairies' definitions).
// - White may reach the aim forward after any of its retractions (the play then ends, won).
// - Forward defence (unless switched off): after one of its retractions Black may reach the
//   same aim against White with one forward move, which refutes.
// - Only legal retractions: each earlier position passes may_be_legal (retro.h) with `depth`
//   single moves looked further back. A White retraction after which Black has none left is
//   not legal either (every legal position but the game array has a predecessor).
// Forward play (Codex for Chess Composition, Art. 16): castling is allowed unless proved
// impossible, so a king and rook on their game-array squares may castle (no retro analysis
// here proves otherwise); en passant only when proved, that is when every last move of the
// opponent that possible_last_moves leaves is that pawn's double step. An en passant capture
// that would reach the aim while the double step is possible but not proved leaves that line
// unresolved, never won or lost.

namespace rebirth {

enum class RetractorType { Proca, Hoeg, Klan, Pacific };
enum class RetractorAim { Mate, SelfMate, Stalemate };  // #1, s#1, =1

struct RetractorSpec {
    int retractions = 1;  // n: White's retractions
    RetractorAim aim = RetractorAim::Mate;
    RetractorType type = RetractorType::Proca;
    bool forward_defence = true;
    int depth = 3;  // single moves looked further back to refute a retracted position
    // Wall-clock limit of the search in seconds (0: none): first choices not settled by then
    // are listed unresolved ("time limit"), never as refuted.
    double max_seconds = 0;
};

// Won (for White), failed, or not settled (an unproved en passant capture decides).
enum class RetractorValue { Win, Fail, Unknown };

// One retraction in a solution tree, in janko notation (retro.h), with what follows: after a
// White retraction either `forward` (the forward moves reaching the aim, one a dual) or every
// Black retraction left (each a defence White answers); after a Black retraction the White
// retractions that win against it. Under Høeg a White retraction's siblings with the same
// unit and square are the other side's choices of what it uncaptured: all of them count.
// The texts (`text`, `forward`) are renderings of the data (`retraction`, `forward_moves`):
// render_retractor_step writes them again from the data alone.
struct RetractorStep {
    Color side = WHITE;
    UnMove retraction;
    std::string text;                  // janko notation of the retraction
    std::vector<Move> forward_moves;   // the forward moves reaching the aim right after it
    std::vector<std::string> forward;  // the same as text ("1.Qa8#")
    RetractorValue value = RetractorValue::Fail;
    // A first retraction the time limit left unsettled, or (value Win) a key whose lines it
    // cut: `next` is then empty.
    bool timed_out = false;
    std::vector<RetractorStep> next;
    friend bool operator==(const RetractorStep&, const RetractorStep&) = default;
};

// The answer as data: the White first retractions that win (keys, each with its tree), and
// those the analysis could not settle; counted as White's first choices (Proca: one
// retraction each; Høeg: one unit and square, whose steps are Black's uncaptures).
struct RetractorAnswer {
    std::vector<RetractorStep> keys;
    std::vector<RetractorStep> unresolved;
    int key_choices = 0;
    int unresolved_choices = 0;
    // The time limit left first choices unsettled (among `unresolved`) or cut a key's lines.
    bool timed_out = false;
    // "multiple" (two key choices or more: cooked), "unique" (one, every other first choice
    // refuted), "none" (every one refuted), or "unresolved" (at most one key, and some first
    // choice not settled: an en passant not proved, or the time limit).
    std::string verdict() const;
};

// The verdict of an answer with these counts (RetractorAnswer::verdict).
std::string retractor_verdict(int key_choices, int unresolved_choices);

// The type's name: "Proca", "Hoeg", "Klan", "Pacific".
const char* retractor_type_name(RetractorType type);

// Whether the stipulation text of a defensive retractor ("-3&#1", "-2 & s#1", "-17&=1") reads
// as n and an aim; false for anything else.
bool parse_retractor_stipulation(const std::string& text, int& n, RetractorAim& aim);

// The stipulation text: "-3 & #1".
std::string retractor_stipulation(int n, RetractorAim aim);

// Solves the retractor on `diagram` (White moved last: its side-to-move field is not used)
// under `rules` (null: orthodox chess; else rules unmoves_supported accepts), the first
// retractions on `threads` (0: all cores; the answer does not depend on it). Throws
// std::invalid_argument for rules without un-moves or n below 1.
RetractorAnswer solve_retractor(const Setup& diagram, const RetractorSpec& spec, const RuleSet* rules = nullptr,
                                int threads = 1);

// White's first choices on `diagram` as solve_retractor works them (Proca: each legal
// retraction; Høeg: each unit and square with every uncapture Black may choose), in order:
// what a cluster hands out.
std::vector<std::vector<UnMove>> retractor_first_choices(const Setup& diagram, const RetractorSpec& spec,
                                                         const RuleSet* rules = nullptr);

// solve_retractor's answer restricted to `choices` (some of retractor_first_choices, in its
// order). Concatenating the keys and the unresolved retractions of the answers over
// consecutive parts of the first choices, and adding their counts, gives solve_retractor's.
RetractorAnswer solve_retractor_choices(const Setup& diagram, const RetractorSpec& spec, const RuleSet* rules,
                                        const std::vector<std::vector<UnMove>>& choices, int threads = 1);

// The answer as text: retractor_key_text of every key, retractor_unresolved_text of every
// unresolved first retraction, then "verdict: V".
std::string retractor_text(const RetractorAnswer& answer);
// One key: "-1.e6-e7 !" then every line of play below it, one a line ("  -1...Kd5xRe4
// -2.Be7-f6 & 1.Qa8#"), each line ending with a newline; for a key whose lines the time limit
// cut, "  (lines not written: time limit)" instead of them.
std::string retractor_key_text(const RetractorStep& key);
// One first retraction not settled: "-1.O-O-O ?  (not settled: ...)" and a newline (why:
// the en passant capture or the time limit).
std::string retractor_unresolved_text(const RetractorStep& step);

// Writes the texts of `step` and of every step below it from their data, as the search
// writes them: `diagram` is the retractor's diagram (White moved last) when `step` is a first
// retraction. Throws std::invalid_argument when the data does not fit: a retraction that is
// not one of the un-moves of its side in the position it is taken back from, steps of one
// side in a row, or a forward move that is not legal where it is played.
void render_retractor_step(const Setup& diagram, RetractorStep& step, const RetractorSpec& spec,
                           const RuleSet* rules = nullptr);

// The lines of play of a key, each a list of retractions ending with the forward move(s)
// ("& 1.Qa8#"), as retractor_text writes them.
std::vector<std::vector<std::string>> retractor_lines(const RetractorStep& key);

}  // namespace rebirth
