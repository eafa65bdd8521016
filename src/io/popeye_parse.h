#pragma once

// Internal pieces of the Popeye input parser (popeye_input.cpp, popeye_keywords.cpp,
// popeye_conditions.cpp, popeye_stipulation.cpp). Not a public header.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rebirth/error.h"
#include "rebirth/problem.h"
#include "rebirth/text.h"

namespace rebirth::popeye {

struct Token {
    std::string text;
    int line = 0;
};

// Splits Popeye input into whitespace-separated tokens, tracking 1-based lines. One token
// can be pushed back.
class Lexer {
  public:
    Lexer(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}

    // Next token, or nullopt at the end of the input.
    std::optional<Token> next();
    // The next token without consuming it.
    std::optional<Token> peek();
    void push_back(Token token);
    // The rest of the current line after the last token (leading blanks skipped, trailing
    // '\r' dropped); consumes it. Fails (returns "") if a token is pushed back.
    std::string rest_of_line();
    int line() const { return line_; }
    // Line of the last token read (1 before any): where "missing ..." errors point.
    int last_line() const { return last_line_; }
    // The token next() returned last (nullopt before any), and whether one is pushed back.
    const std::optional<Token>& last_token() const { return last_token_; }
    bool has_pending() const { return pending_.has_value(); }
    const std::string& file() const { return file_; }

    [[noreturn]] void fail(const Token& token, const std::string& reason) const {
        throw InputError(file_, token.line, token.text, reason);
    }

  private:
    std::string_view text_;
    std::string file_;
    size_t pos_ = 0;
    int line_ = 1;
    int last_line_ = 1;
    std::optional<Token> pending_;
    std::optional<Token> last_token_;
};

// Result of looking a word up in a keyword list.
struct Match {
    int index = -1;          // the keyword's index, -1 if none
    bool ambiguous = false;  // a prefix of several keywords and equal to none
    bool found() const { return index >= 0; }
};

// Looks `word` up case-insensitively: an exact match wins, otherwise the only keyword
// that `word` is a prefix of.
Match match_keyword(std::string_view word, std::span<const std::string_view> keywords);

enum class Command {
    Begin,
    End,
    Next,
    Remark,
    SStipulation,
    Author,
    Origin,
    Pieces,
    Condition,
    Option,
    Stipulation,
    Protocol,
    Title,
    LaTeX,
    LaTeXPieces,
    Award,
    InitialGameArray,
    Forsyth,
    Twin,
    ZeroPosition,
    Count
};
enum class Opt {
    Defence,
    SetPlay,
    WhiteToPlay,
    Variations,
    MoveNumbers,
    StartMoveNumber,
    NoWk,
    Duplex,
    NoBk,
    Threat,
    NoThreat,
    Try,
    MaxSolutions,
    MaxFlightsquares,
    Search,
    MultiSolutions,
    NoSymmetry,
    NonTrivial,
    KeepMatingPiece,
    EnPassant,
    NoBoard,
    NoShortVariations,
    HalfDuplex,
    PostKeyPlay,
    Intelligent,
    MaxTime,
    NoCastling,
    Quodlibet,
    StopOnShortSolutions,
    Beep,
    SuppressGrid,
    WriteGrid,
    CastlingMutuallyExclusive,
    GoalIsEnd,
    BlackToPlay,  // rebirth's own, for retro stipulations
    RetroDepth,   // rebirth's own, for retro stipulations
    Proca,        // rebirth's own, for defensive retractors
    Hoeg,
    NoForwardDefence,
    Klan,
    Pacific,
    Count
};
enum class TwinWord {
    Move,
    Exchange,
    Stipulation,
    SStipulation,
    Add,
    Remove,
    Continued,
    Rotate,
    Condition,
    PolishType,
    Mirror,
    Shift,
    Substitute,
    Count
};
enum class Attribute {
    Royal,
    Kamikaze,
    Paralysing,
    Chameleon,
    Jigger,
    Volage,
    Functionary,
    HalfNeutral,
    HurdleColourChanging,
    Protean,
    Magic,
    Uncapturable,
    Patrol,
    Frischauf,
    Count
};

// Keyword lists of a language, in the order of the enums above.
std::span<const std::string_view> command_words(Language lang);
std::span<const std::string_view> option_words(Language lang);
std::span<const std::string_view> twin_words(Language lang);
std::span<const std::string_view> attribute_words(Language lang);
// White, Black, Neutral.
std::span<const std::string_view> colour_words(Language lang);
// English name of an option (for Options::other).
std::string_view option_name_en(Opt opt);
// Colour letter Popeye prints in twin lines and rebirth brackets ("w"/"b", German "w"/"s").
std::string_view colour_letter(Color c, Language lang);

// Parses the condition words following `Condition` (in a problem or a twin) up to the first
// token that is neither a condition nor a qualifier of one; that token is pushed back.
std::vector<Condition> parse_conditions(Lexer& lex, Language lang);

// Parses a stipulation token ("h#2.5", "ser-s#4", "3->ser-#2", "dia2.5", "a=>b0.5").
// Throws InputError naming `token` on malformed or unsupported stipulations.
Stipulation parse_stipulation(Lexer& lex, const Token& token);

}  // namespace rebirth::popeye
