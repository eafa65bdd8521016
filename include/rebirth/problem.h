#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rebirth/setup.h"
#include "rebirth/types.h"

namespace rebirth {

// Where something came from in an input file (for error messages).
struct SourceLoc {
    std::string file;
    int line = 0;
};

// A stipulation as Popeye reads it. `text` is Popeye's own printed form (e.g. "#2",
// "h#2.5", "ser-h=10", "3->ser-#2", "dia2.5", "a=>b0.5"); the other fields are its parts.
struct Stipulation {
    enum class Play { Direct, Help, Self, Reflex, HelpSelf, HelpReflex, ProofGame, AToB, Other };
    std::string text;
    Play play = Play::Direct;
    bool series = false;
    bool exact = false;
    int intro = 0;          // n of an "n->" prefix
    std::string goal;       // "#", "=", "==", "x", "+", "~", "dia", ...
    int half_moves = 0;     // length in half-moves (h#2 = 4, h#2.5 = 5, #2 = 3, ser-#4 = 4 + 1 ...)
    double moves = 0;       // the number as written (2, 2.5, 10)
    bool empty() const { return text.empty(); }
};

// One Popeye condition word with the words that qualify it, in Popeye's canonical English
// spelling: {"Circe", {"Assassin"}}, {"AntiCirce", {"Cheylan"}}, {"MarsCirce", {}},
// {"Circe", {"Parrain", "LastCapture", "White", "Bg4"}}.
struct Condition {
    std::string name;
    std::vector<std::string> args;
    friend bool operator==(const Condition&, const Condition&) = default;
};

struct Options {
    std::vector<Square> no_castling;   // Option NoCastling <squares>
    std::vector<Square> en_passant;    // Option EnPassant <squares> (departure, skipped, arrival)
    bool white_to_play = false;
    bool half_duplex = false;
    bool duplex = false;
    bool no_board = false;
    bool variation = false;
    bool try_play = false;
    bool set_play = false;
    bool no_threat = false;
    bool no_short_variations = false;
    bool stop_on_short_solutions = false;
    bool intelligent = false;
    bool no_white_king = false;        // NoWk
    bool no_black_king = false;        // NoBk
    std::optional<int> threat;         // Threat n
    std::optional<int> defence;        // Defence n
    std::optional<int> max_solutions;  // MaxSolutions n
    std::vector<std::string> other;    // accepted but not interpreted (e.g. "Protocol")
};

// One twinning operation (Popeye `Twin` command).
struct TwinOp {
    enum class Kind { Move, Exchange, Remove, Add, Substitute, Rotate, Mirror, Shift, Stipulation, Condition };
    Kind kind = Kind::Move;
    Square from = SQ_NONE, to = SQ_NONE;  // Move/Exchange/Shift/Remove(from)/Add(to)
    Piece piece{};                       // Add: the unit; Substitute: the new unit
    Piece old_piece{};                   // Substitute: the unit replaced (walk and colour)
    int degrees = 0;                     // Rotate: 90/180/270
    std::string axis;                    // Mirror: "a1<-->h1", "a1<-->a8", "a1<-->h8", "h1<-->a8"
    Stipulation stipulation;             // Stipulation
    std::vector<Condition> conditions;   // Condition
    std::string text;                    // the operation as Popeye prints it in the twin line
};

struct Twin {
    bool continued = false;  // applies to the previous twin instead of the original
    std::vector<TwinOp> ops;
    SourceLoc where;
};

// A problem as read from Popeye input. Parsing yields this plain value; nothing is solved.
struct Problem {
    Language language = Language::English;
    SourceLoc where;                      // file and line of the problem's first keyword
    std::vector<std::string> authors;     // one per Author command
    std::string origin;
    std::string title;
    std::string award;
    std::vector<std::string> remarks;
    Setup setup;                          // pieces; side to move set from the stipulation
    Stipulation stipulation;
    std::vector<Condition> conditions;
    Options options;
    std::vector<Twin> twins;
};

}  // namespace rebirth
