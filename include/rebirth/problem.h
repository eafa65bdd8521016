#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "rebirth/error.h"
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
    // LastMoves: rebirth's retro stipulation "lastmoves N" (half_moves = N single moves).
    // Retractor: a defensive retractor "-n & #1" / "-n & s#1" / "-n & =1" (half_moves = n
    // White retractions, goal "#1", "s#1" or "=1").
    enum class Play { Direct, Help, Self, Reflex, HelpSelf, HelpReflex, ProofGame, AToB, LastMoves, Retractor, Other };
    std::string text;
    Play play = Play::Direct;
    bool series = false;
    bool exact = false;
    int intro = 0;     // n of an "n->" prefix
    std::string goal;  // "#", "=", "==", "x", "+", "~", "dia", ...
    // Length in half-moves of the whole play, intro included: #2 = 3, s#2 = 4 (the forced
    // mate included), h#2 = 4, h#2.5 = 5, hs#2 = 4, ser-#4 = 4, ser-h#4 = ser-s#4 = 5,
    // dia2.5 = 5, a=>b0.5 = 1, 2->ser-#3 = 5. As written: Option WhiteToPlay changes only
    // Setup::side_to_move.
    int half_moves = 0;
    double moves = 0;  // the number as written (2, 2.5, 10)
    bool empty() const { return text.empty(); }
    // A retro stipulation (last moves or a defensive retractor): the retro layer answers it.
    bool retro() const { return play == Play::LastMoves || play == Play::Retractor; }
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
    std::vector<Square> no_castling;  // Option NoCastling <squares>
    std::vector<Square> en_passant;   // Option EnPassant <squares> (departure, skipped, arrival)
    bool white_to_play = false;
    bool black_to_play = false;       // BlackToPlay (rebirth, retro stipulations: White moved last)
    std::optional<int> retro_depth;   // RetroDepth n (rebirth, retro stipulations)
    int retro_option_line = 0;        // line of BlackToPlay / RetroDepth (for messages)
    bool proca = false;               // Proca (rebirth, retractors: the retracting side uncaptures; the default)
    bool hoeg = false;                // Hoeg (rebirth, retractors: the other side decides the uncapture)
    bool klan = false;                // Klan (rebirth, retractors: White decides every uncapture)
    bool pacific = false;             // Pacific (rebirth, retractors: no uncaptures)
    bool no_forward_defence = false;  // NoForwardDefence (rebirth, retractors)
    int retractor_option_line = 0;    // line of the last of those three (for messages)
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
    bool post_key_play = false;  // PostKeyPlay: the diagram is the position after the key
    bool quodlibet = false;      // Quodlibet: self play where a direct goal also wins
    bool move_numbers = false;   // MoveNumbers: Popeye's progress lines for the root moves
    // CastlingMutuallyExclusive: pairs of game-array rook squares (white, black) whose
    // castlings exclude each other.
    std::vector<std::pair<Square, Square>> castling_exclusive;
    bool no_white_king = false;        // NoWk
    bool no_black_king = false;        // NoBk
    std::optional<int> threat;         // Threat n
    std::optional<int> max_flights;    // MaxFlightsquares n
    std::optional<int> defence;        // Defence n
    std::optional<int> max_solutions;  // MaxSolutions n
    std::vector<std::string> other;    // accepted but not interpreted (e.g. "Protocol")
    friend bool operator==(const Options&, const Options&) = default;
};

// One twinning operation (Popeye `Twin` command).
struct TwinOp {
    enum class Kind {
        Move,
        Exchange,
        Remove,
        Add,
        Substitute,
        Rotate,
        Mirror,
        Shift,
        Stipulation,
        Condition,
        PolishType
    };
    Kind kind = Kind::Move;
    Square from = SQ_NONE, to = SQ_NONE;  // Move/Exchange/Shift/Remove(from)/Add(to)
    Piece piece{};                        // Add: the unit; Substitute: the new walk (colour unused)
    Piece old_piece{};                    // Substitute: the walk replaced (units keep colour, flags)
    int degrees = 0;                      // Rotate: 90/180/270
    std::string axis;                     // Mirror: "a1<-->h1", "a1<-->a8", "a1<-->h8", "h1<-->a8"
    Stipulation stipulation;              // Stipulation
    std::vector<Condition> conditions;    // Condition
    // The operation as Popeye prints it in the twin line, in the problem's language
    // ("wSg5-->e4", "shift a1 ==> a2", "dia3"); empty for Condition (the header printer
    // formats `conditions` itself). Filled when the problem is parsed.
    std::string text;
};

struct Twin {
    bool continued = false;      // applies to the previous twin instead of the original
    bool zero_position = false;  // Popeye `ZeroPosition`: this is twin a); the diagram is not solved
    std::vector<TwinOp> ops;
    SourceLoc where;
};

// A problem as read from Popeye input. Parsing yields this plain value; nothing is solved.
struct Problem {
    Language language = Language::English;
    SourceLoc where;                   // file and line of the problem's first keyword
    std::vector<std::string> authors;  // one per Author command
    std::string origin;
    std::string title;
    std::string award;
    std::vector<std::string> remarks;
    // Pieces (a proof game's target diagram); side to move from the stipulation (and
    // WhiteToPlay in help play); castling rights of K/R on game-array squares minus
    // Option NoCastling; ep_square from Option EnPassant. Duplex/HalfDuplex are left to
    // the solver (side_to_move is the stipulation's own side).
    Setup setup;
    Stipulation stipulation;
    std::vector<Condition> conditions;
    int condition_line = 0;  // line of the first Condition command (for messages)
    Options options;
    // SetPlay, Quodlibet and PostKeyPlay as the input gave them: finalize_setup turns them off
    // in `options` where they do not apply to the stipulation (with a note), and apply_twin
    // starts again from these for a twin's own stipulation.
    struct Asked {
        bool set_play = false, quodlibet = false, post_key_play = false;
    } options_asked;
    std::vector<Twin> twins;

    // Added by the parser (all optional):
    // a=>b only: position a (the pieces given before the stipulation); `setup.board` holds b.
    std::optional<std::array<Piece, SQUARE_NB>> start_board;
    // Units displaced by a later unit placed on the same square (Popeye's underworld,
    // used by Circe Volcanic/Parachute), in input order.
    struct Buried {
        Square square = SQ_NONE;
        Piece piece{};
    };
    std::vector<Buried> underworld;
    // Messages Popeye prints before the problem, e.g. "WhiteToPlay not applicable - ignored".
    std::vector<std::string> notes;

    // Set only by a recovering parse (ParseMode::Recover, popeye_input.h): the first bad
    // input of this problem (file, line and word, e.g. an unknown keyword, a bad square, an
    // impossible stipulation or an unsupported option). The parser skipped the rest of the
    // problem up to its NextProblem / EndProblem, so the fields above hold only what was read
    // before the error (setup not finalized, twins unchecked): report it, never solve it.
    std::optional<InputError> error;
};

}  // namespace rebirth
