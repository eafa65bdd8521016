#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "rebirth/error.h"
#include "rebirth/setup.h"
#include "rebirth/walk.h"

namespace rebirth {

namespace {

constexpr int kMaxClock = 1'000'000;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool is_lower(char c) { return std::islower(static_cast<unsigned char>(c)) != 0; }
char to_upper(char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); }
char to_lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }
bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

// Splits on runs of whitespace; no empty pieces.
std::vector<std::string_view> split_fields(std::string_view s) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && is_space(s[i])) ++i;
        size_t j = i;
        while (j < s.size() && !is_space(s[j])) ++j;
        if (j > i) out.push_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

// Splits on every `sep`; keeps empty pieces.
std::vector<std::string_view> split_on(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    size_t start = 0;
    for (size_t i = 0; i <= s.size(); ++i)
        if (i == s.size() || s[i] == sep) {
            out.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    return out;
}

// Square of the idx-th square in Forsyth/FEN reading order (a8, b8, .., h8, a7, .., h1).
Square reading_square(int idx) { return make_square(idx % 8, 7 - idx / 8); }

// FEN letter (uppercase) of an orthodox walk; '\0' for walks FEN cannot express.
char fen_letter(Walk w) {
    switch (w) {
        case KING:
            return 'K';
        case QUEEN:
            return 'Q';
        case ROOK:
            return 'R';
        case BISHOP:
            return 'B';
        case KNIGHT:
            return 'N';
        case PAWN:
            return 'P';
        default:
            return '\0';
    }
}

Walk walk_from_fen_letter(char upper) {
    switch (upper) {
        case 'K':
            return KING;
        case 'Q':
            return QUEEN;
        case 'R':
            return ROOK;
        case 'B':
            return BISHOP;
        case 'N':
            return KNIGHT;
        case 'P':
            return PAWN;
        default:
            return NO_WALK;
    }
}

// Non-negative decimal made of digits only and at most kMaxClock; -1 otherwise.
int parse_count(std::string_view s) {
    if (s.empty()) return -1;
    for (char c : s)
        if (!is_digit(c)) return -1;
    int value = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || ptr != s.data() + s.size() || value > kMaxClock) return -1;
    return value;
}

// Fills setup.board from the FEN piece-placement field.
void parse_fen_board(std::string_view field, const std::string& source, Setup& setup) {
    const std::vector<std::string_view> ranks = split_on(field, '/');
    if (ranks.size() != 8)
        throw InputError(
            source, 0, std::string(field),
            "FEN board does not have 8 ranks separated by '/' (found " + std::to_string(ranks.size()) + ")");
    for (int i = 0; i < 8; ++i) {
        const std::string_view rank_text = ranks[i];
        const int rank = 7 - i;
        const std::string rank_label = "FEN rank " + std::to_string(rank + 1);
        int file = 0;
        bool last_digit = false;
        for (char c : rank_text) {
            if (c >= '1' && c <= '8') {
                if (last_digit)
                    throw InputError(source, 0, std::string(rank_text), rank_label + " has adjacent digits");
                file += c - '0';
                last_digit = true;
            } else {
                const Walk w = is_alpha(c) ? walk_from_fen_letter(to_upper(c)) : NO_WALK;
                if (w == NO_WALK)
                    throw InputError(source, 0, std::string(1, c), "bad piece letter or digit in " + rank_label);
                if (file < 8) setup.board[make_square(file, rank)] = make_piece(is_lower(c) ? BLACK : WHITE, w);
                ++file;
                last_digit = false;
            }
            if (file > 8) throw InputError(source, 0, std::string(rank_text), rank_label + " has more than 8 squares");
        }
        if (file != 8)
            throw InputError(source, 0, rank_text.empty() ? std::string(field) : std::string(rank_text),
                             rank_label + " has " + std::to_string(file) + " squares, not 8");
    }
}

// Castling field: '-' or letters KQkq, or Shredder/X-FEN rook files (only a and h, king on e).
Bitboard parse_castling(std::string_view field, const std::string& source) {
    if (field == "-") return 0;
    Bitboard rights = 0;
    bool seen[COLOR_NB][2] = {};
    for (char c : field) {
        const char u = to_upper(c);
        int rook_file = -1;
        if (u == 'K')
            rook_file = 7;
        else if (u == 'Q')
            rook_file = 0;
        else if (u >= 'A' && u <= 'H') {
            rook_file = u - 'A';
            if (rook_file != 0 && rook_file != 7)
                throw InputError(source, 0, std::string(1, c),
                                 "castling with a rook that is not on the a or h file is not supported");
        } else {
            throw InputError(source, 0, std::string(1, c), "bad FEN castling letter");
        }
        const Color col = is_lower(c) ? BLACK : WHITE;
        const int side = rook_file == 7 ? 1 : 0;
        if (seen[col][side]) throw InputError(source, 0, std::string(1, c), "repeated FEN castling right");
        seen[col][side] = true;
        const int rank = col == WHITE ? 0 : 7;
        rights |= square_bb(make_square(4, rank)) | square_bb(make_square(rook_file, rank));
    }
    return rights;
}

}  // namespace

bool same_units(const std::array<Piece, SQUARE_NB>& a, const std::array<Piece, SQUARE_NB>& b) {
    for (int s = 0; s < SQUARE_NB; ++s)
        if (a[s].walk != b[s].walk || (!a[s].empty() && a[s].color != b[s].color)) return false;
    return true;
}

bool same_waiting(const Setup& a, const Setup& b) {
    return a.parrain_square == b.parrain_square &&
           (a.parrain_square == SQ_NONE ||
            (a.parrain_piece.walk == b.parrain_piece.walk && a.parrain_piece.color == b.parrain_piece.color));
}

Setup parse_fen(std::string_view fen, const std::string& source) {
    const std::vector<std::string_view> fields = split_fields(fen);
    if (fields.size() < 4)
        throw InputError(source, 0, std::string(trim(fen)),
                         "too few FEN fields (board, side, castling and en passant are required; found " +
                             std::to_string(fields.size()) + ")");
    if (fields.size() > 6) throw InputError(source, 0, std::string(fields[6]), "too many FEN fields (at most 6)");

    Setup setup;
    parse_fen_board(fields[0], source, setup);

    if (fields[1] == "w")
        setup.side_to_move = WHITE;
    else if (fields[1] == "b")
        setup.side_to_move = BLACK;
    else
        throw InputError(source, 0, std::string(fields[1]), "bad FEN side to move (expected w or b)");

    setup.castling = parse_castling(fields[2], source);

    const std::string_view ep = fields[3];
    if (ep != "-") {
        if (ep.size() != 2 || ep[0] < 'a' || ep[0] > 'h' || (ep[1] != '3' && ep[1] != '6'))
            throw InputError(source, 0, std::string(ep),
                             "bad FEN en passant square (expected - or a square on rank 3 or 6)");
        const char wanted = setup.side_to_move == WHITE ? '6' : '3';
        if (ep[1] != wanted)
            throw InputError(source, 0, std::string(ep),
                             std::string("FEN en passant square must be on rank ") + wanted + " when " +
                                 (setup.side_to_move == WHITE ? "White" : "Black") + " is to move");
        setup.ep_square = parse_square(ep);
    }

    if (fields.size() > 4) {
        const int clock = parse_count(fields[4]);
        if (clock < 0)
            throw InputError(source, 0, std::string(fields[4]),
                             "bad FEN halfmove clock (expected 0 to " + std::to_string(kMaxClock) + ")");
        setup.halfmove_clock = clock;
    }
    if (fields.size() > 5) {
        const int number = parse_count(fields[5]);
        if (number < 1)
            throw InputError(source, 0, std::string(fields[5]),
                             "bad FEN fullmove number (expected 1 to " + std::to_string(kMaxClock) + ")");
        setup.fullmove_number = number;
    }
    return setup;
}

std::string to_fen(const Setup& setup) {
    std::string out;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const Piece p = setup.board[make_square(file, rank)];
            if (p.empty()) {
                ++empty;
                continue;
            }
            const char letter = fen_letter(p.walk);
            if (letter == '\0')
                throw std::invalid_argument("to_fen: " + std::string(walk_info(p.walk).name) + " on " +
                                            square_name(make_square(file, rank)) + " has no FEN letter");
            if (empty) out += char('0' + empty);
            empty = 0;
            out += p.color == WHITE ? letter : to_lower(letter);
        }
        if (empty) out += char('0' + empty);
        if (rank) out += '/';
    }
    out += setup.side_to_move == WHITE ? " w " : " b ";

    const auto has = [&](Square s) { return (setup.castling & square_bb(s)) != 0; };
    std::string castling;
    if (has(SQ_E1) && has(SQ_H1)) castling += 'K';
    if (has(SQ_E1) && has(SQ_A1)) castling += 'Q';
    if (has(SQ_E8) && has(SQ_H8)) castling += 'k';
    if (has(SQ_E8) && has(SQ_A8)) castling += 'q';
    out += castling.empty() ? "-" : castling;

    out += ' ';
    out += is_ok(setup.ep_square) ? square_name(setup.ep_square) : "-";
    out += ' ' + std::to_string(setup.halfmove_clock) + ' ' + std::to_string(setup.fullmove_number);
    return out;
}

std::array<Piece, SQUARE_NB> parse_forsyth(std::string_view text, const std::string& source, int line, Language lang) {
    std::array<Piece, SQUARE_NB> board{};
    const std::string_view s = trim(text);
    if (s.empty()) throw InputError(source, line, "", "empty Forsyth board");

    const auto at = [](int idx) {
        return idx < SQUARE_NB ? square_name(reading_square(idx)) : std::string("none, board full");
    };
    int idx = 0;               // next square in reading order
    size_t segment_start = 0;  // text position after the last '/'
    bool after_slash = false;
    size_t i = 0;
    while (i < s.size()) {
        const char c = s[i];
        if (is_digit(c)) {
            size_t j = i;
            while (j < s.size() && is_digit(s[j])) ++j;
            const std::string_view run = s.substr(i, j - i);
            int n = 0;
            auto [ptr, ec] = std::from_chars(run.data(), run.data() + run.size(), n);
            if (ec != std::errc() || ptr != run.data() + run.size() || n <= 0 || run[0] == '0')
                throw InputError(source, line, std::string(run), "bad count of empty squares in Forsyth");
            if (n > SQUARE_NB - idx)
                throw InputError(source, line, std::string(run),
                                 "Forsyth empty-square count runs past h1 (" + std::to_string(SQUARE_NB - idx) +
                                     " squares left from " + at(idx) + ")");
            idx += n;
            i = j;
            after_slash = false;
        } else if (c == '/') {
            if (idx == 0 || idx % 8 != 0 || after_slash)
                throw InputError(source, line, std::string(s.substr(segment_start, i + 1 - segment_start)),
                                 "Forsyth '/' must end a complete, non-empty rank (next square " + at(idx) + ")");
            ++i;
            segment_start = i;
            after_slash = true;
        } else if (c == '+' || c == '-' || c == '=' || c == '.' || is_alpha(c)) {
            const size_t start = i;
            int colour = -1;
            if (c == '+' || c == '-' || c == '=') {
                if (c == '=')
                    throw InputError(source, line, std::string(s.substr(start, 2)),
                                     "neutral pieces are not supported in Forsyth");
                colour = c == '+' ? WHITE : BLACK;
                ++i;
            }
            size_t code_len = 1;
            if (i < s.size() && s[i] == '.') {
                ++i;
                code_len = 2;
            }
            std::string_view code = s.substr(i, std::min(code_len, s.size() - i));
            bool well_formed = code.size() == code_len;
            for (char k : code)
                well_formed =
                    well_formed && (code_len == 2 ? std::isalnum(static_cast<unsigned char>(k)) != 0 : is_alpha(k));
            i += code.size();
            const std::string fragment(s.substr(start, i - start));
            if (!well_formed)
                throw InputError(source, line, fragment,
                                 code_len == 2 ? "Forsyth '.' must be followed by a two-character piece code"
                                               : "Forsyth colour sign must be followed by a piece");
            if (colour < 0) {
                if (!is_alpha(code[0]))
                    throw InputError(source, line, fragment,
                                     "Forsyth piece code starting with a digit needs a colour sign + or -");
                colour = is_lower(code[0]) ? BLACK : WHITE;
            }
            const Walk w = walk_from_code(code, lang);
            if (w == NO_WALK) throw InputError(source, line, fragment, "unknown or unsupported piece in Forsyth");
            if (idx >= SQUARE_NB) throw InputError(source, line, fragment, "too many squares in Forsyth");
            board[reading_square(idx)] = make_piece(Color(colour), w);
            ++idx;
            after_slash = false;
        } else {
            throw InputError(source, line, std::string(1, c), "bad character in Forsyth");
        }
    }
    return board;
}

std::string to_forsyth(const std::array<Piece, SQUARE_NB>& board, Language lang) {
    std::string out;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const Piece p = board[make_square(file, rank)];
            if (p.empty()) {
                ++empty;
                continue;
            }
            const std::string_view code = walk_code(p.walk, lang);
            if (code.empty() || code.size() > 2)
                throw std::invalid_argument("to_forsyth: walk " + std::to_string(p.walk) + " on " +
                                            square_name(make_square(file, rank)) + " has no Forsyth code");
            if (empty) out += char('0' + empty);
            empty = 0;
            if (code.size() == 2) {
                if (!is_alpha(code[0])) out += p.color == WHITE ? '+' : '-';
                out += '.';
            }
            for (char k : code) out += p.color == WHITE ? to_upper(k) : to_lower(k);
        }
        if (empty) out += char('0' + empty);
        if (rank) out += '/';
    }
    return out;
}

}  // namespace rebirth
