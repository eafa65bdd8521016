#include "rebirth/popeye_input.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>

#include "io/popeye_parse.h"
#include "rebirth/walk.h"

namespace rebirth {

namespace popeye {

std::optional<Token> Lexer::next() {
    if (pending_) {
        std::optional<Token> t = std::move(pending_);
        pending_.reset();
        last_token_ = t;
        return t;
    }
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) {
        if (text_[pos_] == '\n') ++line_;
        ++pos_;
    }
    if (pos_ >= text_.size()) return std::nullopt;
    const size_t start = pos_;
    while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    last_line_ = line_;
    last_token_ = Token{std::string(text_.substr(start, pos_ - start)), line_};
    return last_token_;
}

std::optional<Token> Lexer::peek() {
    if (!pending_) pending_ = next();
    return pending_;
}

void Lexer::push_back(Token token) { pending_ = std::move(token); }

std::string Lexer::rest_of_line() {
    if (pending_) return "";
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
    const size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    std::string out(text_.substr(start, pos_ - start));
    if (!out.empty() && out.back() == '\r') out.pop_back();
    return out;
}

}  // namespace popeye

namespace {

using namespace popeye;

bool has_digit(std::string_view s) {
    for (char c : s)
        if (std::isdigit(static_cast<unsigned char>(c))) return true;
    return false;
}

bool all_digits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

std::string trim_right(std::string s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    return s;
}

// Squares of a token like "a2a3b4"; empty if the token is not such a list.
std::vector<Square> square_list(std::string_view s) {
    std::vector<Square> out;
    if (s.empty() || s.size() % 2 != 0) return {};
    for (size_t i = 0; i < s.size(); i += 2) {
        const Square sq = parse_square(s.substr(i, 2));
        if (sq == SQ_NONE) return {};
        out.push_back(sq);
    }
    return out;
}

// Popeye's printed unit: colour letter and walk code in the problem's language ("wSg5").
std::string unit_text(Piece p, Language lang) {
    return std::string(colour_letter(p.color, lang)) + std::string(walk_code(p.walk, lang));
}

// The keyword for a command in the problem's language (for messages).
std::string command_word(Command c, Language lang) { return std::string(command_words(lang)[static_cast<size_t>(c)]); }

// A unit token "ka1" / "pa2a3b4": walk code (one letter if the token's length is odd, two
// otherwise) and squares. Throws InputError naming the token.
std::pair<Walk, std::vector<Square>> parse_unit_token(const Lexer& lex, const Token& tok, Language lang) {
    const std::string_view t = tok.text;
    if (t.size() < 3) lex.fail(tok, "unit and square expected, found");
    const size_t code_len = t.size() % 2 == 1 ? 1 : 2;
    const Walk walk = walk_from_code(t.substr(0, code_len), lang);
    if (walk == NO_WALK) lex.fail(tok, "unknown walk in");
    std::vector<Square> squares;
    for (size_t i = code_len; i < t.size(); i += 2) {
        const Square sq = parse_square(t.substr(i, 2));
        if (sq == SQ_NONE) lex.fail(tok, "bad square '" + std::string(t.substr(i, 2)) + "' in");
        squares.push_back(sq);
    }
    return {walk, squares};
}

// Reads colour words, attributes and unit lists (Pieces, twin Add) up to the first other
// token, which is pushed back. Calls place() for every unit. Returns the number of units.
int parse_piece_list(Lexer& lex, Language lang, const std::function<void(Square, Piece)>& place) {
    std::optional<Color> colour;
    std::uint8_t flags = PF_NONE;
    int units = 0;
    while (auto tok = lex.next()) {
        if (has_digit(tok->text)) {
            if (!colour) lex.fail(*tok, "colour expected before");
            const auto [walk, squares] = parse_unit_token(lex, *tok, lang);
            for (Square sq : squares) {
                place(sq, make_piece(*colour, walk, flags));
                ++units;
            }
            continue;
        }
        const Match c = match_keyword(tok->text, colour_words(lang));
        if (c.found()) {
            if (c.index == 2) lex.fail(*tok, "neutral units are not supported by rebirth:");
            colour = c.index == 0 ? WHITE : BLACK;
            flags = PF_NONE;
            continue;
        }
        if (colour) {
            const Match a = match_keyword(tok->text, attribute_words(lang));
            if (a.found()) {
                switch (static_cast<Attribute>(a.index)) {
                    case Attribute::Royal:
                        flags |= PF_ROYAL;
                        break;
                    case Attribute::Kamikaze:
                        flags |= PF_KAMIKAZE;
                        break;
                    case Attribute::Frischauf:
                        flags |= PF_PROMOTED;
                        break;
                    default:
                        lex.fail(*tok, "piece attribute not supported by rebirth:");
                }
                continue;
            }
        }
        lex.push_back(*tok);
        break;
    }
    return units;
}

// Reads the number following an option; throws InputError if it is missing or malformed.
int read_number(Lexer& lex, const Token& after) {
    const auto tok = lex.next();
    if (!tok) lex.fail(after, "number expected after");
    if (!all_digits(tok->text) || tok->text.size() > 9) lex.fail(*tok, "malformed number");
    return std::stoi(tok->text);
}

// Side to move at the start of play, as Popeye has it; `notes` gets Popeye's warnings for the
// options that do not apply to the stipulation, in the order Popeye writes them: first those
// of its stipulation modifiers (Quodlibet, WhiteToPlay, PostKeyPlay: written when the
// stipulation is set up), then those of its solving machinery (SetPlay, Intelligent, Threat: written
// when solving starts). Which options apply was measured against Popeye 4.104 for every
// stipulation form rebirth reads (data/popeye-oracle/README.md).
Color initial_side(Problem& p) {
    const Stipulation& st = p.stipulation;
    using P = Stipulation::Play;
    const bool half = st.moves != static_cast<int>(st.moves);
    const bool help =
        !st.series && st.intro == 0 && (st.play == P::Help || st.play == P::HelpSelf || st.play == P::HelpReflex);
    if (st.play == P::LastMoves) return p.options.black_to_play ? BLACK : WHITE;
    if (st.play == P::Retractor) return BLACK;  // White moved last
    const bool battle =
        !st.series && st.intro == 0 && (st.play == P::Direct || st.play == P::Self || st.play == P::Reflex);
    auto note = [&](const std::string& text) {
        if (std::find(p.notes.begin(), p.notes.end(), text) == p.notes.end()) p.notes.push_back(text);
    };
    auto not_applicable = [&](bool& option, const std::string& text) {
        if (!option) return;
        option = false;
        note(text);
    };
    // Quodlibet applies to every self stipulation (battle, help-self, series, with an intro)
    // and to battle reflex play; it changes the play of battle self play only (a direct goal
    // also wins).
    const bool quodlibet = st.play == P::Self || st.play == P::HelpSelf || (st.play == P::Reflex && battle);
    if (!quodlibet) not_applicable(p.options.quodlibet, "Quodlibet not applicable - ignored");
    if (p.options.white_to_play && !(help && !half) && st.play != P::AToB) note("WhiteToPlay not applicable - ignored");
    // PostKeyPlay needs battle play.
    if (!battle) not_applicable(p.options.post_key_play, "PostKeyPlay not applicable - ignored");
    // Set play exists where the opponent can move first: not in series direct play or series
    // proof games, not in help-self or help-reflex play of one move (hs#1 is one move of
    // White's and Black's forced goal), not after PostKeyPlay (the diagram is after the key).
    const bool whole_one = !half && st.moves == 1;
    if ((st.series && (st.play == P::Direct || st.play == P::ProofGame)) ||
        (help && (st.play == P::HelpSelf || st.play == P::HelpReflex) && whole_one) || p.options.post_key_play)
        not_applicable(p.options.set_play, "SetPlay not applicable - ignored");
    // Popeye's intelligent mode covers help and series mates and stalemates (h#, h=, ser-#,
    // ser-=, ser-h#, ser-h=) and proof games, in orthodox chess only: elsewhere it says so (and
    // under a condition it then solves nothing at all; rebirth solves, README: known Popeye
    // defects). The solutions are the same either way.
    if (p.options.intelligent) {
        const bool mate_or_stale = st.goal == "#" || st.goal == "=";
        const bool supported = st.play == P::ProofGame || st.play == P::AToB ||
                               ((st.play == P::Help || (st.series && st.play == P::Direct)) && mate_or_stale);
        if (!supported || !p.conditions.empty())
            note(
                "Intelligent Mode only with h#/=, ser-#/= and ser-h#/=, with a limited set of fairy conditions and "
                "without fairy pieces.");
    }
    // Option Threat n limits the threats of battle play of more than n moves; elsewhere Popeye
    // says it does not apply (it never says so for a battle play of one move or for n = 0).
    if (p.options.threat && *p.options.threat >= 1) {
        const int moves = static_cast<int>(st.moves);
        if (battle ? (!half && moves >= 2 && *p.options.threat >= moves) : !st.empty())
            note("Option \"Threat\" not applicable or indicated maximum threat length too big");
    }
    if (st.empty()) return WHITE;
    // n->ser-...: the intro moves are made by the opponent of the series side (ser-h: White,
    // ser-# and ser-s: Black), who is the side to move in the diagram.
    if (st.intro > 0) return st.play == P::Help ? WHITE : BLACK;
    switch (st.play) {
        case P::ProofGame:
            return WHITE;
        case P::AToB:
            // Popeye plays a=>b as help play started by Black; WhiteToPlay lets White start
            // (the length stays as written). ser-a=>b: White makes the series.
            if (st.series) return WHITE;
            return p.options.white_to_play ? WHITE : BLACK;
        case P::Help:
            if (st.series) return BLACK;
            if (p.options.white_to_play && !half) return WHITE;
            return half ? WHITE : BLACK;
        case P::HelpSelf:
        case P::HelpReflex:
            if (st.series) return WHITE;
            if (p.options.white_to_play && !half) return BLACK;
            return half ? BLACK : WHITE;
        default:
            return WHITE;
    }
}

// Derives side to move, castling rights and en passant square of `p.setup` from the
// stipulation, the board and the options (RULES.md section 2).
void finalize_setup(Problem& p) {
    Setup& s = p.setup;
    s.side_to_move = initial_side(p);
    // WhiteToPlay in help play of whole moves: the other side starts and the play is one
    // half-move shorter (h#3 is played as 1...W 2.B W 3.B W#, like h#2.5; hs#2 as hs#1.5,
    // hr#1 as hr#0.5: Popeye's output is the same). Options may come after the stipulation,
    // so the length is fixed here, from the number of moves as written.
    Stipulation& st = p.stipulation;
    using P = Stipulation::Play;
    const bool whole = st.moves == static_cast<int>(st.moves);
    if (!st.series && st.intro == 0 && (st.play == P::Help || st.play == P::HelpSelf || st.play == P::HelpReflex) &&
        whole && st.moves >= 1) {
        const int n = static_cast<int>(st.moves);
        st.half_moves = 2 * n - (p.options.white_to_play ? 1 : 0);
        // Popeye prints the stipulation it plays: h#3 with WhiteToPlay is "h#2.5".
        const std::string written = std::to_string(n);
        if (p.options.white_to_play && st.text.ends_with(written) && !st.text.ends_with(".5"))
            st.text = st.text.substr(0, st.text.size() - written.size()) + std::to_string(n - 1) + ".5";
    }
    s.castling = 0;
    const struct {
        Square sq;
        Piece piece;
    } homes[] = {{SQ_E1, make_piece(WHITE, KING)}, {SQ_A1, make_piece(WHITE, ROOK)}, {SQ_H1, make_piece(WHITE, ROOK)},
                 {SQ_E8, make_piece(BLACK, KING)}, {SQ_A8, make_piece(BLACK, ROOK)}, {SQ_H8, make_piece(BLACK, ROOK)}};
    for (const auto& h : homes) {
        const Piece on = s.board[h.sq];
        if (on.walk != h.piece.walk || on.color != h.piece.color) continue;
        if (std::find(p.options.no_castling.begin(), p.options.no_castling.end(), h.sq) != p.options.no_castling.end())
            continue;
        s.castling |= square_bb(h.sq);
    }
    s.ep_square = p.options.en_passant.size() >= 3 ? p.options.en_passant[1] : SQ_NONE;
}

enum class TwinText { Rotate, Mirror, Shift, PolishType };

// The word Popeye prints for a twinning operation in `lang` (its TwinningTab).
std::string twin_word(TwinText t, Language lang) {
    static constexpr const char* words[4][3] = {{"rotate", "Drehung", "rotation"},
                                                {"mirror", "Spiegelung", "miroir"},
                                                {"shift", "Verschiebung", "translation"},
                                                {"PolishType", "Farbwechsel", "CouleurEchange"}};
    const int column = lang == Language::German ? 1 : lang == Language::French ? 2 : 0;
    return words[static_cast<int>(t)][column];
}

// Applies one twinning operation to `p` (board, stipulation or conditions) and fills in its
// printed text. Throws InputError (naming the twin's line) if it cannot be applied.
void apply_op(Problem& p, TwinOp& op, const SourceLoc& where) {
    auto& board = p.setup.board;
    const Language lang = p.language;
    auto fail = [&](const std::string& word, const std::string& reason) {
        throw InputError(where.file, where.line, word, reason);
    };
    switch (op.kind) {
        case TwinOp::Kind::Move: {
            const Piece moving = board[op.from];
            if (moving.empty()) fail(square_name(op.from), "twin: no unit to move on");
            op.text = unit_text(moving, lang) + square_name(op.from) + "-->" + square_name(op.to);
            board[op.to] = moving;
            board[op.from] = Piece{};
            break;
        }
        case TwinOp::Kind::Exchange: {
            const Piece a = board[op.from], b = board[op.to];
            if (a.empty()) fail(square_name(op.from), "twin: no unit to exchange on");
            if (b.empty()) fail(square_name(op.to), "twin: no unit to exchange on");
            op.text = unit_text(a, lang) + square_name(op.from) + "<-->" + unit_text(b, lang) + square_name(op.to);
            std::swap(board[op.from], board[op.to]);
            break;
        }
        case TwinOp::Kind::Remove: {
            const Piece gone = board[op.from];
            if (gone.empty()) fail(square_name(op.from), "twin: no unit to remove on");
            op.text = "-" + unit_text(gone, lang) + square_name(op.from);
            board[op.from] = Piece{};
            break;
        }
        case TwinOp::Kind::Add:
            // Popeye marks a unit added on an empty square with '+'; one that replaces the
            // occupant (a removal and an addition on one square) is printed bare: "sTf8".
            op.text = (board[op.to].empty() ? "+" : "") + unit_text(op.piece, lang) + square_name(op.to);
            board[op.to] = op.piece;
            break;
        case TwinOp::Kind::Substitute:
            op.text =
                std::string(walk_code(op.old_piece.walk, lang)) + " ==> " + std::string(walk_code(op.piece.walk, lang));
            for (Piece& u : board)
                if (!u.empty() && u.walk == op.old_piece.walk) u.walk = op.piece.walk;
            break;
        case TwinOp::Kind::Rotate: {
            // Popeye turns the board to the left (counter-clockwise) by `degrees`.
            std::array<Piece, SQUARE_NB> out{};
            for (int sq = 0; sq < SQUARE_NB; ++sq) {
                int f = file_of(Square(sq)), r = rank_of(Square(sq));
                for (int k = 0; k < op.degrees / 90; ++k) {
                    const int nf = 7 - r, nr = f;
                    f = nf;
                    r = nr;
                }
                out[make_square(f, r)] = board[sq];
            }
            board = out;
            op.text = twin_word(TwinText::Rotate, lang) + " " + std::to_string(op.degrees);
            break;
        }
        case TwinOp::Kind::Mirror: {
            std::array<Piece, SQUARE_NB> out{};
            for (int sq = 0; sq < SQUARE_NB; ++sq) {
                const int f = file_of(Square(sq)), r = rank_of(Square(sq));
                Square to = Square(sq);
                if (op.axis == "a1<-->h1")
                    to = make_square(7 - f, r);
                else if (op.axis == "a1<-->a8")
                    to = make_square(f, 7 - r);
                else if (op.axis == "a1<-->h8")
                    to = make_square(7 - r, 7 - f);  // on the a8-h1 diagonal
                else
                    to = make_square(r, f);  // a8<-->h1: on a1-h8
                out[to] = board[sq];
            }
            board = out;
            op.text = twin_word(TwinText::Mirror, lang) + " " + op.axis;
            break;
        }
        case TwinOp::Kind::Shift: {
            const int df = file_of(op.to) - file_of(op.from), dr = rank_of(op.to) - rank_of(op.from);
            std::array<Piece, SQUARE_NB> out{};
            for (int sq = 0; sq < SQUARE_NB; ++sq) {
                if (board[sq].empty()) continue;
                const int f = file_of(Square(sq)) + df, r = rank_of(Square(sq)) + dr;
                if (!on_board(f, r)) fail(square_name(Square(sq)), "twin: shift moves a unit off the board:");
                out[make_square(f, r)] = board[sq];
            }
            board = out;
            op.text = twin_word(TwinText::Shift, lang) + " " + square_name(op.from) + " ==> " + square_name(op.to);
            break;
        }
        case TwinOp::Kind::PolishType:
            for (Piece& u : board)
                if (!u.empty()) u.color = ~u.color;
            op.text = twin_word(TwinText::PolishType, lang);
            break;
        case TwinOp::Kind::Stipulation:
            p.stipulation = op.stipulation;
            op.text = op.stipulation.text;
            break;
        case TwinOp::Kind::Condition:
            p.conditions = op.conditions;
            op.text.clear();
            break;
    }
}

// Reads the rest of a Twin / ZeroPosition command into `twin`.
void parse_twin(Lexer& lex, Language lang, Twin& twin) {
    while (auto tok = lex.next()) {
        const Match m = match_keyword(tok->text, twin_words(lang));
        if (m.ambiguous && twin.ops.empty()) lex.fail(*tok, "ambiguous twinning keyword");
        if (!m.found()) {
            if (twin.ops.empty() && !twin.continued) lex.fail(*tok, "twinning operation expected, found");
            lex.push_back(*tok);
            return;
        }
        auto square_arg = [&](const Token& after) {
            const auto t = lex.next();
            if (!t) lex.fail(after, "square expected after");
            const Square sq = parse_square(t->text);
            if (sq == SQ_NONE) lex.fail(*t, "bad square");
            return sq;
        };
        TwinOp op;
        switch (static_cast<TwinWord>(m.index)) {
            case TwinWord::Continued:
                if (!twin.ops.empty() || twin.continued) lex.fail(*tok, "'continued' must follow the twin keyword:");
                twin.continued = true;
                continue;
            case TwinWord::Move:
            case TwinWord::Exchange:
            case TwinWord::Shift:
                op.kind = m.index == static_cast<int>(TwinWord::Move)       ? TwinOp::Kind::Move
                          : m.index == static_cast<int>(TwinWord::Exchange) ? TwinOp::Kind::Exchange
                                                                            : TwinOp::Kind::Shift;
                op.from = square_arg(*tok);
                op.to = square_arg(*tok);
                break;
            case TwinWord::Remove: {
                const auto t = lex.next();
                if (!t) lex.fail(*tok, "square expected after");
                const std::vector<Square> squares = square_list(t->text);
                if (squares.empty()) lex.fail(*t, "bad square");
                for (size_t i = 0; i + 1 < squares.size(); ++i) {
                    TwinOp r;
                    r.kind = TwinOp::Kind::Remove;
                    r.from = squares[i];
                    twin.ops.push_back(r);
                }
                op.kind = TwinOp::Kind::Remove;
                op.from = squares.back();
                break;
            }
            case TwinWord::Add: {
                const int n = parse_piece_list(lex, lang, [&](Square sq, Piece piece) {
                    TwinOp a;
                    a.kind = TwinOp::Kind::Add;
                    a.to = sq;
                    a.piece = piece;
                    twin.ops.push_back(a);
                });
                if (n == 0) {
                    const auto t = lex.peek();
                    if (t) lex.fail(*t, "colour and units expected after 'add', found");
                    lex.fail(*tok, "colour and units expected after");
                }
                continue;
            }
            case TwinWord::Substitute: {
                op.kind = TwinOp::Kind::Substitute;
                for (Piece* target : {&op.old_piece, &op.piece}) {
                    const auto t = lex.next();
                    if (!t) lex.fail(*tok, "walk expected after");
                    const Walk w = t->text.size() <= 2 ? walk_from_code(t->text, lang) : NO_WALK;
                    if (w == NO_WALK) lex.fail(*t, "unknown walk");
                    target->walk = w;
                }
                break;
            }
            case TwinWord::Rotate: {
                op.kind = TwinOp::Kind::Rotate;
                op.degrees = read_number(lex, *tok);
                if (op.degrees != 90 && op.degrees != 180 && op.degrees != 270)
                    throw InputError(lex.file(), tok->line, std::to_string(op.degrees),
                                     "rotation must be 90, 180 or 270 degrees, not");
                break;
            }
            case TwinWord::Mirror: {
                op.kind = TwinOp::Kind::Mirror;
                const auto t = lex.next();
                if (!t) lex.fail(*tok, "axis (a1<-->h1, a1<-->a8, a1<-->h8, a8<-->h1) expected after");
                const std::string axis = to_lower(t->text);
                if (axis != "a1<-->h1" && axis != "a1<-->a8" && axis != "a1<-->h8" && axis != "a8<-->h1")
                    lex.fail(*t, "unknown mirror axis");
                op.axis = axis;
                break;
            }
            case TwinWord::PolishType:
                op.kind = TwinOp::Kind::PolishType;
                break;
            case TwinWord::Stipulation: {
                op.kind = TwinOp::Kind::Stipulation;
                const auto t = lex.next();
                if (!t) lex.fail(*tok, "stipulation expected after");
                op.stipulation = parse_stipulation(lex, *t);
                if (op.stipulation.play == Stipulation::Play::AToB)
                    lex.fail(*t, "a=>b is not supported as a twin stipulation:");
                break;
            }
            case TwinWord::SStipulation:
                lex.fail(*tok, "SStipulation (structured stipulation) is not supported by rebirth:");
            case TwinWord::Condition:
                op.kind = TwinOp::Kind::Condition;
                op.conditions = parse_conditions(lex, lang);
                break;
            case TwinWord::Count:
                break;
        }
        twin.ops.push_back(std::move(op));
    }
}

// Reads the options following `Option` into `o` until a token that is no option.
void parse_options(Lexer& lex, Language lang, Options& o) {
    while (auto tok = lex.next()) {
        const Match m = match_keyword(tok->text, option_words(lang));
        if (!m.found()) {
            lex.push_back(*tok);
            return;
        }
        const Opt opt = static_cast<Opt>(m.index);
        const std::string name(option_name_en(opt));
        auto squares_after = [&](size_t min_count, size_t max_count) {
            std::vector<Square> out;
            while (auto t = lex.next()) {
                const std::vector<Square> sq = square_list(t->text);
                if (sq.empty()) {
                    lex.push_back(*t);
                    break;
                }
                out.insert(out.end(), sq.begin(), sq.end());
            }
            if (out.size() < min_count || out.size() > max_count) {
                const auto t = lex.peek();
                if (out.empty() && t) lex.fail(*t, name + ": squares expected, found");
                lex.fail(*tok, "wrong number of squares after");
            }
            return out;
        };
        switch (opt) {
            case Opt::Defence:
                o.defence = read_number(lex, *tok);
                break;
            case Opt::Threat:
                o.threat = read_number(lex, *tok);
                break;
            case Opt::MaxSolutions:
                o.max_solutions = read_number(lex, *tok);
                break;
            case Opt::SetPlay:
                o.set_play = true;
                break;
            case Opt::WhiteToPlay:
                o.white_to_play = true;
                break;
            case Opt::BlackToPlay:
                o.black_to_play = true;
                o.retro_option_line = tok->line;
                break;
            case Opt::RetroDepth: {
                const int depth = read_number(lex, *tok);
                if (depth > 8) lex.fail(*tok, "retro depth above 8 not supported:");
                o.retro_depth = depth;
                o.retro_option_line = tok->line;
                break;
            }
            case Opt::Proca:
                o.proca = true;
                o.retractor_option_line = tok->line;
                break;
            case Opt::Hoeg:
                o.hoeg = true;
                o.retractor_option_line = tok->line;
                break;
            case Opt::NoForwardDefence:
                o.no_forward_defence = true;
                o.retractor_option_line = tok->line;
                break;
            case Opt::Klan:
                o.klan = true;
                o.retractor_option_line = tok->line;
                break;
            case Opt::Pacific:
                o.pacific = true;
                o.retractor_option_line = tok->line;
                break;
            case Opt::Variations:
                o.variation = true;
                break;
            case Opt::NoWk:
                o.no_white_king = true;
                break;
            case Opt::NoBk:
                o.no_black_king = true;
                break;
            case Opt::Duplex:
                o.duplex = true;
                break;
            case Opt::HalfDuplex:
                o.half_duplex = true;
                break;
            case Opt::NoThreat:
                o.no_threat = true;
                break;
            case Opt::Try:
                o.try_play = true;
                break;
            case Opt::NoBoard:
                o.no_board = true;
                break;
            case Opt::NoShortVariations:
                o.no_short_variations = true;
                break;
            case Opt::StopOnShortSolutions:
                o.stop_on_short_solutions = true;
                break;
            case Opt::Intelligent: {
                o.intelligent = true;
                const auto t = lex.peek();
                // "Intelligent n" limits the solutions per mating position: Popeye then prints
                // only some of them, which a cook-checker must not do.
                if (t && all_digits(t->text))
                    lex.fail(*t, "Intelligent with a number of solutions per position not supported by rebirth:");
                break;
            }
            case Opt::EnPassant:
                o.en_passant = squares_after(3, 4);
                break;
            case Opt::NoCastling: {
                const std::vector<Square> sq = squares_after(1, 64);
                o.no_castling.insert(o.no_castling.end(), sq.begin(), sq.end());
                break;
            }
            case Opt::MaxTime:
                o.other.push_back(name + " " + std::to_string(read_number(lex, *tok)));
                break;
            case Opt::MaxFlightsquares:
                o.max_flights = read_number(lex, *tok);
                o.other.push_back(name + " " + std::to_string(*o.max_flights));  // printed after the stipulation
                break;
            case Opt::Beep: {
                const auto t = lex.peek();
                o.other.push_back(t && all_digits(t->text) ? name + " " + lex.next()->text : name);
                break;
            }
            case Opt::CastlingMutuallyExclusive: {
                const auto t = lex.next();
                if (!t || square_list(t->text).size() != 2)
                    lex.fail(t ? *t : *tok, "two squares (like a1h8) expected for");
                const std::vector<Square> pair = square_list(t->text);
                o.castling_exclusive.emplace_back(pair[0], pair[1]);
                o.other.push_back(name + " " + t->text);
                break;
            }
            case Opt::PostKeyPlay:
                o.post_key_play = true;
                break;
            case Opt::Quodlibet:
                o.quodlibet = true;
                o.other.push_back(name);
                break;
            case Opt::MoveNumbers:
                o.move_numbers = true;
                break;
            // Options that change what is a solution and that rebirth does not implement.
            case Opt::NonTrivial:
            case Opt::KeepMatingPiece:
            case Opt::GoalIsEnd:
            case Opt::StartMoveNumber:
                lex.fail(*tok, "option not supported by rebirth:");
            default:
                o.other.push_back(name);
                break;
        }
    }
}

// Why a token that is no command was rejected, given the command before it.
std::string unknown_reason(std::optional<Command> previous) {
    if (!previous) return "unknown keyword";
    switch (*previous) {
        case Command::Condition:
            return "unknown condition or keyword";
        case Command::Option:
            return "unknown option or keyword";
        case Command::Pieces:
            return "unknown colour, attribute, unit or keyword";
        case Command::Twin:
        case Command::ZeroPosition:
            return "unknown twinning operation or keyword";
        default:
            return "unknown keyword";
    }
}

// Reads one problem's commands up to EndProblem / NextProblem (returned).
Command parse_problem(Lexer& lex, Problem& p) {
    const Language lang = p.language;
    std::optional<Command> previous;
    while (true) {
        const auto tok = lex.next();
        if (!tok) throw InputError(lex.file(), lex.last_line(), command_word(Command::End, lang), "missing");
        const Match m = match_keyword(tok->text, command_words(lang));
        if (m.ambiguous) lex.fail(*tok, "ambiguous keyword");
        if (!m.found()) lex.fail(*tok, unknown_reason(previous));
        const Command cmd = static_cast<Command>(m.index);
        previous = cmd;
        switch (cmd) {
            case Command::End:
            case Command::Next:
                return cmd;
            case Command::Begin:
                lex.fail(*tok, "problem not ended before");
            case Command::Remark:
                p.remarks.push_back(lex.rest_of_line());
                break;
            case Command::Author:
                p.authors.push_back(lex.rest_of_line());  // Popeye keeps trailing blanks
                break;
            case Command::Origin:
            case Command::Title:
            case Command::Award: {
                std::string& field = cmd == Command::Origin ? p.origin : cmd == Command::Title ? p.title : p.award;
                if (!field.empty()) field += "\n";
                field += lex.rest_of_line();
                break;
            }
            case Command::Protocol:
                p.options.other.push_back("Protocol " + trim_right(lex.rest_of_line()) + " (ignored)");
                break;
            case Command::Pieces:
                parse_piece_list(lex, lang, [&](Square sq, Piece piece) {
                    if (!p.setup.board[sq].empty()) {
                        p.underworld.push_back({sq, p.setup.board[sq]});
                        p.setup.underworld.emplace_back(sq, p.setup.board[sq]);
                    }
                    p.setup.board[sq] = piece;
                });
                break;
            case Command::Forsyth: {
                const auto t = lex.next();
                if (!t) lex.fail(*tok, "board expected after");
                p.setup.board = parse_forsyth(t->text, lex.file(), t->line, p.language);
                break;
            }
            case Command::Stipulation: {
                const auto t = lex.next();
                if (!t) lex.fail(*tok, "stipulation expected after");
                p.stipulation = parse_stipulation(lex, *t);
                if (p.stipulation.play == Stipulation::Play::AToB) {
                    // The units given so far are position a; those that follow are b.
                    p.start_board = p.setup.board;
                    p.setup.board = {};
                }
                break;
            }
            case Command::Condition: {
                if (p.conditions.empty()) p.condition_line = tok->line;
                std::vector<Condition> more = parse_conditions(lex, lang);
                p.conditions.insert(p.conditions.end(), more.begin(), more.end());
                break;
            }
            case Command::Option:
                parse_options(lex, lang, p.options);
                break;
            case Command::Twin:
            case Command::ZeroPosition: {
                if (cmd == Command::ZeroPosition && !p.twins.empty())
                    lex.fail(*tok, "ZeroPosition must come before the first twin:");
                Twin twin;
                twin.where = {lex.file(), tok->line};
                twin.zero_position = cmd == Command::ZeroPosition;
                parse_twin(lex, lang, twin);
                if (twin.zero_position && twin.continued) lex.fail(*tok, "ZeroPosition cannot be continued:");
                p.twins.push_back(std::move(twin));
                break;
            }
            case Command::SStipulation:
                lex.fail(*tok, "SStipulation (structured stipulation) is not supported by rebirth:");
            case Command::LaTeX:
            case Command::LaTeXPieces:
            case Command::InitialGameArray:
                lex.fail(*tok, "command not supported by rebirth:");
            case Command::Count:
                break;
        }
    }
}

// Checks a parsed problem, derives its setup and fills in the twins' printed texts.
void finish_problem(Lexer& lex, Problem& p, int end_line) {
    if (p.stipulation.empty())
        throw InputError(lex.file(), end_line, command_word(Command::Stipulation, p.language), "missing");
    if (p.stipulation.play == Stipulation::Play::AToB && !p.start_board)
        throw InputError(lex.file(), end_line, p.stipulation.text, "a=>b needs position b after the stipulation:");
    const bool retractor = p.stipulation.play == Stipulation::Play::Retractor;
    const bool retro = p.stipulation.play == Stipulation::Play::LastMoves || retractor;
    if (!retro && (p.options.black_to_play || p.options.retro_depth))
        throw InputError(lex.file(), p.options.retro_option_line,
                         p.options.black_to_play ? "BlackToPlay" : "RetroDepth",
                         "option for retro stipulations (lastmoves, -n & #1) only:");
    if (retro && p.options.black_to_play && p.options.white_to_play)
        throw InputError(lex.file(), p.options.retro_option_line, "BlackToPlay", "contradicts WhiteToPlay:");
    const Options& o = p.options;
    if (!retractor && (o.proca || o.hoeg || o.klan || o.pacific || o.no_forward_defence))
        throw InputError(lex.file(), o.retractor_option_line,
                         o.proca     ? "Proca"
                         : o.hoeg    ? "Hoeg"
                         : o.klan    ? "Klan"
                         : o.pacific ? "Pacific"
                                     : "NoForwardDefence",
                         "option for defensive retractors (-n & #1, -n & s#1, -n & =1) only:");
    // One type: the second one named contradicts the first.
    const std::array<std::pair<bool, const char*>, 4> types{
        {{o.proca, "Proca"}, {o.hoeg, "Hoeg"}, {o.klan, "Klan"}, {o.pacific, "Pacific"}}};
    const char* first_type = nullptr;
    for (const auto& [on, name] : types) {
        if (!on) continue;
        if (first_type)
            throw InputError(lex.file(), o.retractor_option_line, name, std::string("contradicts ") + first_type + ":");
        first_type = name;
    }
    if (retractor && (o.black_to_play || o.white_to_play))
        throw InputError(lex.file(), o.black_to_play ? o.retro_option_line : end_line,
                         o.black_to_play ? "BlackToPlay" : "WhiteToPlay",
                         "a defensive retractor's diagram is the position after White's last move:");
    p.options_asked = {p.options.set_play, p.options.quodlibet, p.options.post_key_play};
    finalize_setup(p);
    // A diagram shows no castling rights: a retro problem does not assume any (the king and
    // rooks on their squares may have moved and come back).
    if (retro) p.setup.castling = 0;
    // Apply every twin once (on copies) to check it and fill in its printed texts.
    Problem previous = p;
    for (Twin& twin : p.twins) {
        Problem cur = twin.continued ? previous : p;
        for (TwinOp& op : twin.ops) apply_op(cur, op, twin.where);
        previous = cur;
    }
}

// The command `word` names in `lang` if it ends a problem (NextProblem or EndProblem).
std::optional<Command> problem_end(std::string_view word, Language lang) {
    const Match m = match_keyword(word, command_words(lang));
    if (m.index == static_cast<int>(Command::Next) || m.index == static_cast<int>(Command::End))
        return static_cast<Command>(m.index);
    return std::nullopt;
}

// After an error inside a problem: skips the rest of it and returns the NextProblem /
// EndProblem that ends it. The token the error was raised on counts when it is itself that
// keyword (e.g. "stipulation NextProblem"). The lines of Remark, Author, Origin, Title,
// Award and Protocol are skipped whole, so their words are never taken for keywords.
// Throws InputError ("missing EndProblem") at the end of the input.
Command skip_rest_of_problem(Lexer& lex, Language lang) {
    if (!lex.has_pending() && lex.last_token())
        if (const auto end = problem_end(lex.last_token()->text, lang)) return *end;
    while (const auto tok = lex.next()) {
        if (const auto end = problem_end(tok->text, lang)) return *end;
        const Match m = match_keyword(tok->text, command_words(lang));
        switch (m.found() ? static_cast<Command>(m.index) : Command::Count) {
            case Command::Remark:
            case Command::Author:
            case Command::Origin:
            case Command::Title:
            case Command::Award:
            case Command::Protocol:
                lex.rest_of_line();
                break;
            default:
                break;
        }
    }
    throw InputError(lex.file(), lex.last_line(), command_word(Command::End, lang), "missing");
}

}  // namespace

std::vector<Problem> parse_popeye(std::string_view text, const std::string& file_name) {
    return parse_popeye(text, file_name, ParseMode::Strict);
}

std::vector<Problem> parse_popeye(std::string_view text, const std::string& file_name, ParseMode mode) {
    Lexer lex(text, file_name);
    const auto first = lex.next();
    if (!first) throw InputError(file_name, lex.line(), "BeginProblem", "empty input: missing");
    Language lang = Language::English;
    bool found = false;
    for (Language l : {Language::English, Language::French, Language::German}) {
        const Match m = match_keyword(first->text, command_words(l));
        if (m.index == static_cast<int>(Command::Begin)) {
            lang = l;
            found = true;
            break;
        }
    }
    if (!found) lex.fail(*first, "BeginProblem (DebutProbleme, AnfangProblem) expected, found");

    std::vector<Problem> problems;
    int start_line = first->line;
    while (true) {
        Problem p;
        p.language = lang;
        p.where = {file_name, start_line};
        Command end = Command::Count;  // until parse_problem has read the problem's end
        try {
            end = parse_problem(lex, p);
            finish_problem(lex, p, lex.last_line());
        } catch (const InputError& e) {
            if (mode == ParseMode::Strict) throw;
            p.error = e;
            if (end == Command::Count) end = skip_rest_of_problem(lex, lang);
        }
        problems.push_back(std::move(p));
        if (end == Command::End) break;
        const auto next = lex.peek();
        if (!next) throw InputError(file_name, lex.last_line(), command_word(Command::End, lang), "missing");
        start_line = next->line;
    }
    return problems;
}

std::vector<Condition> parse_condition_words(std::string_view words, const std::string& source) {
    popeye::Lexer lex(words, source);
    std::vector<Condition> conditions = popeye::parse_conditions(lex, Language::English);
    if (auto rest = lex.next()) lex.fail(*rest, "unknown condition word");
    return conditions;
}

std::vector<Problem> parse_popeye_file(const std::string& path) { return parse_popeye_file(path, ParseMode::Strict); }

std::vector<Problem> parse_popeye_file(const std::string& path, ParseMode mode) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw InputError(path, 0, "", "is a directory, not a problem file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path, 0, "", "cannot open file");
    std::ostringstream buf;
    buf << in.rdbuf();
    return parse_popeye(buf.str(), path, mode);
}

Problem apply_twin(const Problem& problem, size_t index) {
    if (index == 0) return problem;
    if (index > problem.twins.size())
        throw std::out_of_range("apply_twin: problem has " + std::to_string(problem.twins.size()) + " twins");
    Problem p = problem.twins[index - 1].continued ? apply_twin(problem, index - 1) : problem;
    Twin twin = problem.twins[index - 1];
    for (TwinOp& op : twin.ops) apply_op(p, op, twin.where);
    p.notes.clear();
    p.options.set_play = problem.options_asked.set_play;
    p.options.quodlibet = problem.options_asked.quodlibet;
    p.options.post_key_play = problem.options_asked.post_key_play;
    finalize_setup(p);
    return p;
}

}  // namespace rebirth
