// FEN and Popeye Forsyth parsing (RULES.md section 1: pieces and notation; section 2: castling
// and en passant fields of a FEN).
#include <gtest/gtest.h>

#include "test_util.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "rebirth/error.h"
#include "rebirth/setup.h"
#include "rebirth/walk.h"

namespace rebirth {
namespace {

using rebirth::test::read_text;

namespace fs = std::filesystem;
using Board = std::array<Piece, SQUARE_NB>;

}  // namespace

// Readable gtest output for units: "wK", "bG", "--".
void PrintTo(const Piece& p, std::ostream* os) {
    if (p.empty()) {
        *os << "--";
        return;
    }
    *os << (p.color == WHITE ? 'w' : 'b') << walk_code(p.walk, Language::English);
    if (p.flags) *os << "(flags " << int(p.flags) << ")";
}

namespace {

const fs::path kReference = fs::path(REBIRTH_SHARED_DIR) / "reference";

Square sq(const char* name) {
    const Square s = parse_square(name);
    EXPECT_TRUE(is_ok(s)) << name;
    return s;
}

Bitboard squares(std::initializer_list<const char*> names) {
    Bitboard b = 0;
    for (const char* n : names) b |= square_bb(sq(n));
    return b;
}

int count_pieces(const Board& board) {
    int n = 0;
    for (const Piece& p : board) n += !p.empty();
    return n;
}

// Distinct FEN strings of reference/movelists.jsonl, with one record (side, options) each.
std::map<std::string, nlohmann::json> reference_fens() {
    std::map<std::string, nlohmann::json> out;
    std::ifstream in(kReference / "movelists.jsonl");
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        nlohmann::json j = nlohmann::json::parse(line);
        out.emplace(j.at("fen").get<std::string>(), j);
    }
    return out;
}

// The board Popeye drew in a .out file (English piece codes; '-' marks black units), if any.
std::optional<Board> popeye_diagram(const fs::path& out_file) {
    std::ifstream in(out_file);
    std::string line;
    bool inside = false;
    int ranks_seen = 0;
    Board board{};
    while (std::getline(in, line)) {
        if (line.rfind("+---a---b", 0) == 0) {
            if (inside) break;
            inside = true;
            continue;
        }
        if (!inside || line.size() < 36 || line[0] < '1' || line[0] > '8') continue;
        const int rank = line[0] - '1';
        for (int file = 0; file < 8; ++file) {
            std::string cell = line.substr(1 + 4 * file, 4);
            cell.erase(0, cell.find_first_not_of(' '));
            if (cell == ".") continue;
            Color c = WHITE;
            if (!cell.empty() && cell[0] == '-') {
                c = BLACK;
                cell.erase(0, 1);
            }
            const Walk w = walk_from_code(cell, Language::English);
            EXPECT_NE(w, NO_WALK) << out_file << ": cell '" << cell << "'";
            board[make_square(file, rank)] = make_piece(c, w);
        }
        ++ranks_seen;
    }
    if (ranks_seen != 8) return std::nullopt;
    return board;
}

// Calls f, expects an InputError naming `word` (as word() and quoted in what()) from `source`.
template <class F>
void expect_input_error(F f, const std::string& word, const std::string& source, int line = 0) {
    try {
        f();
        ADD_FAILURE() << "no InputError; expected one naming '" << word << "'";
    } catch (const InputError& e) {
        EXPECT_EQ(e.word(), word) << e.what();
        EXPECT_EQ(e.file(), source) << e.what();
        EXPECT_EQ(e.line(), line) << e.what();
        if (!word.empty()) {
            EXPECT_NE(std::string(e.what()).find("'" + word + "'"), std::string::npos) << e.what();
        }
        EXPECT_FALSE(e.reason().empty());
    }
}

void expect_fen_error(const std::string& fen, const std::string& word) {
    SCOPED_TRACE("FEN: " + fen);
    expect_input_error([&] { parse_fen(fen, "test.fen"); }, word, "test.fen");
}

void expect_forsyth_error(const std::string& text, const std::string& word) {
    SCOPED_TRACE("Forsyth: " + text);
    expect_input_error([&] { parse_forsyth(text, "test.inp", 12); }, word, "test.inp", 12);
}

const char* kInitial = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// ---------------------------------------------------------------------------------------------
// FEN

TEST(Fen, ReferenceFensRoundTrip) {
    const auto fens = reference_fens();
    ASSERT_GE(fens.size(), 10u) << "movelists.jsonl not found or empty";
    for (const auto& [fen, record] : fens) {
        SCOPED_TRACE(fen);
        const rebirth::Setup s = parse_fen(fen);
        EXPECT_EQ(to_fen(s), fen);
        EXPECT_EQ(parse_fen(to_fen(s)), s);
        // Side to move agrees with the record's `side`.
        EXPECT_EQ(s.side_to_move, record.at("side").get<std::string>() == "white" ? WHITE : BLACK);
        // `EnPassant d7d6d5` names the skipped square the FEN field must give.
        const std::string options = record.at("options").get<std::string>();
        std::smatch m;
        if (std::regex_search(options, m, std::regex("EnPassant ([a-h][1-8])([a-h][1-8])([a-h][1-8])")))
            EXPECT_EQ(s.ep_square, sq(m[2].str().c_str()));
        else
            EXPECT_EQ(s.ep_square, SQ_NONE);
        // Every unit on the board is orthodox, and each FEN letter count matches.
        int letters = 0;
        for (char c : fen.substr(0, fen.find(' '))) letters += std::isalpha(static_cast<unsigned char>(c)) != 0;
        EXPECT_EQ(count_pieces(s.board), letters);
    }
}

TEST(Fen, InitialPositionSquares) {
    const rebirth::Setup s = parse_fen(kInitial);
    EXPECT_EQ(s.board[SQ_A1], make_piece(WHITE, ROOK));
    EXPECT_EQ(s.board[SQ_B1], make_piece(WHITE, KNIGHT));
    EXPECT_EQ(s.board[SQ_C1], make_piece(WHITE, BISHOP));
    EXPECT_EQ(s.board[SQ_D1], make_piece(WHITE, QUEEN));
    EXPECT_EQ(s.board[SQ_E1], make_piece(WHITE, KING));
    EXPECT_EQ(s.board[SQ_H2], make_piece(WHITE, PAWN));
    EXPECT_EQ(s.board[SQ_A7], make_piece(BLACK, PAWN));
    EXPECT_EQ(s.board[SQ_D8], make_piece(BLACK, QUEEN));
    EXPECT_EQ(s.board[SQ_E8], make_piece(BLACK, KING));
    EXPECT_EQ(s.board[SQ_G8], make_piece(BLACK, KNIGHT));
    EXPECT_TRUE(s.board[SQ_E4].empty());
    EXPECT_EQ(count_pieces(s.board), 32);
    EXPECT_EQ(s.side_to_move, WHITE);
    EXPECT_EQ(s.castling, squares({"e1", "a1", "h1", "e8", "a8", "h8"}));
    EXPECT_EQ(s.ep_square, SQ_NONE);
    EXPECT_EQ(s.halfmove_clock, 0);
    EXPECT_EQ(s.fullmove_number, 1);
}

TEST(Fen, ReferenceSpotChecks) {
    // "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 1": after ...d7-d5.
    rebirth::Setup s = parse_fen("rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 1");
    EXPECT_EQ(s.ep_square, SQ_D6);
    EXPECT_EQ(s.board[SQ_D5], make_piece(BLACK, PAWN));
    EXPECT_EQ(s.board[SQ_E5], make_piece(WHITE, PAWN));
    EXPECT_EQ(s.board[SQ_F6], make_piece(BLACK, KNIGHT));
    EXPECT_TRUE(s.board[SQ_G8].empty());
    EXPECT_TRUE(s.board[SQ_E2].empty());

    s = parse_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    EXPECT_EQ(s.side_to_move, BLACK);
    EXPECT_EQ(s.ep_square, SQ_E3);
    EXPECT_EQ(s.board[SQ_D4], make_piece(BLACK, PAWN));
    EXPECT_EQ(s.board[SQ_E4], make_piece(WHITE, PAWN));

    // "4k3/1P4p1/2n2b2/3qP3/2Q1p3/5N2/p4r2/R3K2R b KQ - 0 1": only White keeps rights.
    s = parse_fen("4k3/1P4p1/2n2b2/3qP3/2Q1p3/5N2/p4r2/R3K2R b KQ - 0 1");
    EXPECT_EQ(s.castling, squares({"e1", "a1", "h1"}));
    EXPECT_EQ(s.board[SQ_A2], make_piece(BLACK, PAWN));
    EXPECT_EQ(s.board[SQ_F2], make_piece(BLACK, ROOK));
    EXPECT_EQ(s.board[SQ_F3], make_piece(WHITE, KNIGHT));
    EXPECT_EQ(s.board[SQ_C4], make_piece(WHITE, QUEEN));
    EXPECT_EQ(s.board[SQ_D5], make_piece(BLACK, QUEEN));
    EXPECT_EQ(s.board[SQ_B7], make_piece(WHITE, PAWN));
    EXPECT_EQ(s.board[SQ_E8], make_piece(BLACK, KING));

    // "1n2k3/P1P5/8/8/8/8/1p4p1/R3K1N1 w Q - 0 1": queen-side only.
    s = parse_fen("1n2k3/P1P5/8/8/8/8/1p4p1/R3K1N1 w Q - 0 1");
    EXPECT_EQ(s.castling, squares({"e1", "a1"}));
    EXPECT_EQ(s.board[SQ_G1], make_piece(WHITE, KNIGHT));
    EXPECT_EQ(s.board[SQ_B8], make_piece(BLACK, KNIGHT));

    // "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1": Black only.
    s = parse_fen("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1");
    EXPECT_EQ(s.castling, squares({"e8", "a8", "h8"}));
    EXPECT_EQ(s.board[SQ_G1], make_piece(WHITE, KING));
    EXPECT_EQ(s.board[SQ_H6], make_piece(WHITE, KNIGHT));
    EXPECT_EQ(s.board[SQ_A3], make_piece(BLACK, QUEEN));

    s = parse_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1");
    EXPECT_EQ(s.castling, 0u);
    EXPECT_EQ(s.board[SQ_A5], make_piece(WHITE, KING));
    EXPECT_EQ(s.board[SQ_H4], make_piece(BLACK, KING));
    EXPECT_EQ(count_pieces(s.board), 10);
}

TEST(Fen, ClocksAndOptionalFields) {
    rebirth::Setup s = parse_fen("4k3/8/8/8/8/8/8/4K3 b - - 17 42");
    EXPECT_EQ(s.halfmove_clock, 17);
    EXPECT_EQ(s.fullmove_number, 42);
    EXPECT_EQ(to_fen(s), "4k3/8/8/8/8/8/8/4K3 b - - 17 42");

    s = parse_fen("4k3/8/8/8/8/8/8/4K3 w -  -");  // four fields, extra blanks
    EXPECT_EQ(s.halfmove_clock, 0);
    EXPECT_EQ(s.fullmove_number, 1);
    EXPECT_EQ(to_fen(s), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");

    s = parse_fen("  4k3/8/8/8/8/8/8/4K3 w - - 5\n");  // five fields, surrounding blanks
    EXPECT_EQ(s.halfmove_clock, 5);
    EXPECT_EQ(s.fullmove_number, 1);
}

TEST(Fen, ShredderCastlingLetters) {
    const rebirth::Setup kqkq = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    EXPECT_EQ(parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"), kqkq);
    EXPECT_EQ(parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w AHah - 0 1"), kqkq);
    EXPECT_EQ(parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w Hq - 0 1").castling, squares({"e1", "h1", "e8", "a8"}));
    EXPECT_EQ(to_fen(parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1")), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
}

TEST(Fen, ToFenOfEmptyAndPartialRights) {
    EXPECT_EQ(to_fen(rebirth::Setup{}), "8/8/8/8/8/8/8/8 w - - 0 1");
    rebirth::Setup s = parse_fen(kInitial);
    s.castling = squares({"h1", "e8", "a8"});  // h1 without e1: no right FEN can express
    EXPECT_EQ(to_fen(s), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w q - 0 1");
}

TEST(Fen, ToFenRejectsFairyWalks) {
    rebirth::Setup s = parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    s.board[SQ_D4] = make_piece(WHITE, GRASSHOPPER);
    EXPECT_THROW(to_fen(s), std::invalid_argument);
}

TEST(FenErrors, FieldCount) {
    expect_fen_error("8/8/8/8/8/8/8/8 w -", "8/8/8/8/8/8/8/8 w -");
    expect_fen_error(std::string(kInitial) + " extra", "extra");
    try {
        parse_fen("   ", "blank.fen");
        ADD_FAILURE() << "blank FEN accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("too few FEN fields"), std::string::npos) << e.what();
    }
}

TEST(FenErrors, Board) {
    expect_fen_error("8/8/8/8/8/8/8 w - - 0 1", "8/8/8/8/8/8/8");                         // 7 ranks
    expect_fen_error("8/8/8/8/8/8/8/8/8 w - - 0 1", "8/8/8/8/8/8/8/8/8");                 // 9 ranks
    expect_fen_error("rnbqkbn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "rnbqkbn");  // 7 squares
    expect_fen_error("rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "rnbqkbnrr");
    expect_fen_error("8/8/8/4p4/8/8/8/8 w - - 0 1", "4p4");  // 9 squares
    expect_fen_error("8/8/8/8/8/8/8/7K1 w - - 0 1", "7K1");
    expect_fen_error("8/8/8/44/8/8/8/8 w - - 0 1", "44");  // adjacent digits
    expect_fen_error("8/8/8/8/8/8/8/9 w - - 0 1", "9");
    expect_fen_error("8/8/8/8/0k7/8/8/8 w - - 0 1", "0");
    expect_fen_error("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "x");
    expect_fen_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RSBQKBSR w - - 0 1", "S");  // Popeye letter, not FEN
    expect_fen_error("8/8/8/8/3G4/8/8/8 w - - 0 1", "G");
    expect_fen_error("8/8//8/8/8/8/8 w - - 0 1", "8/8//8/8/8/8/8");  // empty rank
}

TEST(FenErrors, Side) {
    expect_fen_error("8/8/8/8/8/8/8/8 x - - 0 1", "x");
    expect_fen_error("8/8/8/8/8/8/8/8 W - - 0 1", "W");
    expect_fen_error("8/8/8/8/8/8/8/8 white - - 0 1", "white");
}

TEST(FenErrors, Castling) {
    expect_fen_error("r3k2r/8/8/8/8/8/8/R3K2R w KX - 0 1", "X");
    expect_fen_error("r3k2r/8/8/8/8/8/8/R3K2R w KQkq1 - 0 1", "1");
    expect_fen_error("r3k2r/8/8/8/8/8/8/R3K2R w -K - 0 1", "-");
    expect_fen_error("r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", "K");
    expect_fen_error("r3k2r/8/8/8/8/8/8/R3K2R w KH - 0 1", "H");  // same right twice
    expect_fen_error("r3k2r/8/8/8/8/8/8/R3K2R w Kqq - 0 1", "q");
    expect_fen_error("r3k2r/8/8/8/8/8/8/1R2K2R w B - 0 1", "B");  // rook file b: unsupported
}

TEST(FenErrors, EnPassant) {
    expect_fen_error("8/8/8/8/8/8/8/8 w - e4 0 1", "e4");
    expect_fen_error("8/8/8/8/8/8/8/8 w - i6 0 1", "i6");
    expect_fen_error("8/8/8/8/8/8/8/8 w - E6 0 1", "E6");
    expect_fen_error("8/8/8/8/8/8/8/8 w - e66 0 1", "e66");
    expect_fen_error("8/8/8/8/8/8/8/8 w - e3 0 1", "e3");  // White to move: a black pawn skipped e6
    expect_fen_error("8/8/8/8/8/8/8/8 b - e6 0 1", "e6");
}

TEST(FenErrors, Numbers) {
    expect_fen_error("8/8/8/8/8/8/8/8 w - - -1 1", "-1");
    expect_fen_error("8/8/8/8/8/8/8/8 w - - x 1", "x");
    expect_fen_error("8/8/8/8/8/8/8/8 w - - 1.5 1", "1.5");
    expect_fen_error("8/8/8/8/8/8/8/8 w - - 99999999999 1", "99999999999");
    expect_fen_error("8/8/8/8/8/8/8/8 w - - 0 0", "0");
    expect_fen_error("8/8/8/8/8/8/8/8 w - - 0 +3", "+3");
    expect_fen_error("8/8/8/8/8/8/8/8 w - - 0 one", "one");
}

TEST(FenErrors, DefaultSourceName) {
    try {
        parse_fen("8/8/8/8/8/8/8/8 q - - 0 1");
        ADD_FAILURE() << "bad side accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(e.file(), "<fen>");
        EXPECT_EQ(std::string(e.what()).rfind("<fen>: ", 0), 0u) << e.what();
    }
}

// ---------------------------------------------------------------------------------------------
// Popeye Forsyth

TEST(Forsyth, LastCaptureExampleMatchesPopeyeDiagram) {
    // EXAMPLES-lastcap-01.inp: `fors 32/6p1/1p6/5Q2/K1k5/`; the .out draws wKa1 -Kc1 Qf2 -Pb3 -Pg4.
    const Board b = parse_forsyth("32/6p1/1p6/5Q2/K1k5/");
    EXPECT_EQ(b[SQ_A1], make_piece(WHITE, KING));
    EXPECT_EQ(b[SQ_C1], make_piece(BLACK, KING));
    EXPECT_EQ(b[SQ_F2], make_piece(WHITE, QUEEN));
    EXPECT_EQ(b[SQ_B3], make_piece(BLACK, PAWN));
    EXPECT_EQ(b[SQ_G4], make_piece(BLACK, PAWN));
    EXPECT_EQ(count_pieces(b), 5);
    const auto drawn = popeye_diagram(kReference / "problems" / "EXAMPLES-lastcap-01.out");
    ASSERT_TRUE(drawn.has_value());
    EXPECT_EQ(b, *drawn);
}

TEST(Forsyth, EveryReferenceForsythMatchesItsDiagram) {
    const std::regex fors_line(R"(^\s*fors\w*\s+(\S+))", std::regex::icase);
    int parsed = 0, compared = 0;
    for (const auto& entry : fs::directory_iterator(kReference / "problems")) {
        if (entry.path().extension() != ".inp") continue;
        std::istringstream in(read_text(entry.path()));
        std::string line;
        int line_no = 0;
        while (std::getline(in, line)) {
            ++line_no;
            std::smatch m;
            if (!std::regex_search(line, m, fors_line)) continue;
            SCOPED_TRACE(entry.path().filename().string() + ": " + m[1].str());
            const Board b = parse_forsyth(m[1].str(), entry.path().string(), line_no);
            ++parsed;
            EXPECT_EQ(parse_forsyth(to_forsyth(b)), b);
            fs::path out = entry.path();
            out.replace_extension(".out");
            if (const auto drawn = popeye_diagram(out)) {
                ++compared;
                for (int s = 0; s < SQUARE_NB; ++s) EXPECT_EQ(b[s], (*drawn)[s]) << "square " << square_name(Square(s));
            }
        }
    }
    EXPECT_GE(parsed, 13);
    EXPECT_GE(compared, 10);
}

TEST(Forsyth, GameArrayForms) {
    // Manual examples: the game array with and without '/', with the trailing '/' of the
    // reference files, compared with the FEN of the initial position.
    const Board fen_board = parse_fen(kInitial).board;
    EXPECT_EQ(parse_forsyth("rsbqkbsr/pppppppp/8/8/8/8/PPPPPPPP/RSBQKBSR"), fen_board);
    EXPECT_EQ(parse_forsyth("rsbqkbsrpppppppp32PPPPPPPPRSBQKBSR"), fen_board);
    EXPECT_EQ(parse_forsyth("rsbqkbsr/pppppppp/8/8/8/8/PPPPPPPP/RSBQKBSR/"), fen_board);
    EXPECT_EQ(parse_forsyth("  rsbqkbsr/pppppppp/8/8/8/8/PPPPPPPP/RSBQKBSR \n"), fen_board);
    EXPECT_EQ(to_forsyth(fen_board), "rsbqkbsr/pppppppp/8/8/8/8/PPPPPPPP/RSBQKBSR");
}

TEST(Forsyth, ImplicitTrailingSquaresAndLongRuns) {
    // EXAMPLES-antisup-01.inp `k1K5/p7/1P6/40`: the 40 may be left out.
    EXPECT_EQ(parse_forsyth("k1K5/p7/1P6/40"), parse_forsyth("k1K5/p7/1P6"));
    EXPECT_EQ(parse_forsyth("k1K5/p7/1P6/40"), parse_forsyth("k1K5/p7/1P6/"));
    // A run spans ranks: 12 = a8..h8 and a7..d7; 34 = f7..h7, ranks 6..4 and a3..g3.
    const Board b = parse_forsyth("12k34K");
    EXPECT_EQ(b[SQ_E7], make_piece(BLACK, KING));
    EXPECT_EQ(b[SQ_H3], make_piece(WHITE, KING));
    EXPECT_EQ(count_pieces(b), 2);
    EXPECT_EQ(parse_forsyth("64"), Board{});
    EXPECT_EQ(parse_forsyth("8/8/8/8/8/8/8/8/"), Board{});
    EXPECT_EQ(to_forsyth(Board{}), "8/8/8/8/8/8/8/8");
    // The last square filled.
    EXPECT_EQ(parse_forsyth("63K")[SQ_H1], make_piece(WHITE, KING));
}

TEST(Forsyth, FairyPieces) {
    // Manual: `48/5gPp/5K1k` (V. Onitiu, #6 - black grasshopper).
    Board b = parse_forsyth("48/5gPp/5K1k");
    EXPECT_EQ(b[SQ_F2], make_piece(BLACK, GRASSHOPPER));
    EXPECT_EQ(b[SQ_G2], make_piece(WHITE, PAWN));
    EXPECT_EQ(b[SQ_H2], make_piece(BLACK, PAWN));
    EXPECT_EQ(b[SQ_F1], make_piece(WHITE, KING));
    EXPECT_EQ(b[SQ_H1], make_piece(BLACK, KING));
    EXPECT_EQ(count_pieces(b), 5);

    // N is the nightrider, S the knight, case decides the colour.
    b = parse_forsyth("Nn1Ss1Gg");
    EXPECT_EQ(b[SQ_A8], make_piece(WHITE, NIGHTRIDER));
    EXPECT_EQ(b[SQ_B8], make_piece(BLACK, NIGHTRIDER));
    EXPECT_EQ(b[SQ_D8], make_piece(WHITE, KNIGHT));
    EXPECT_EQ(b[SQ_E8], make_piece(BLACK, KNIGHT));
    EXPECT_EQ(b[SQ_G8], make_piece(WHITE, GRASSHOPPER));
    EXPECT_EQ(b[SQ_H8], make_piece(BLACK, GRASSHOPPER));
    EXPECT_EQ(to_forsyth(b), "Nn1Ss1Gg/8/8/8/8/8/8/8");

    // Colour signs override the letter case.
    b = parse_forsyth("+g-N+k-K4");
    EXPECT_EQ(b[SQ_A8], make_piece(WHITE, GRASSHOPPER));
    EXPECT_EQ(b[SQ_B8], make_piece(BLACK, NIGHTRIDER));
    EXPECT_EQ(b[SQ_C8], make_piece(WHITE, KING));
    EXPECT_EQ(b[SQ_D8], make_piece(BLACK, KING));

    // Round trip of a board with every built-in walk of both colours.
    Board all{};
    int s = 0;
    for (int w = 1; w < walk_count(); ++w)
        for (Color c : {WHITE, BLACK}) all[s += 3] = make_piece(c, Walk(w));
    EXPECT_EQ(parse_forsyth(to_forsyth(all)), all);
}

TEST(Forsyth, LineNumberAndSourceInErrors) {
    try {
        parse_forsyth("k1K5/p7/1P6/x", "problem.inp", 7);
        ADD_FAILURE() << "bad piece accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("problem.inp:7: ", 0), 0u) << e.what();
        EXPECT_EQ(e.word(), "x");
    }
}

TEST(ForsythErrors, UnknownPieces) {
    expect_forsyth_error("k1K5/p7/1P6/x", "x");
    expect_forsyth_error("Z7", "Z");         // zebra: not a walk of ours (yet)
    expect_forsyth_error("3.gi4", ".gi");    // giraffe: two-letter code, unknown to the table
    expect_forsyth_error("1.PA6/8", ".PA");  // pao (manual's Mach example)
    expect_forsyth_error("+.15", "+.15");    // (1,5)-leaper
}

TEST(ForsythErrors, MalformedPieceCodes) {
    expect_forsyth_error("k1K5.", ".");    // '.' at the end
    expect_forsyth_error("k1K5.g", ".g");  // '.' needs two characters
    expect_forsyth_error("k.g/7", ".g/");
    expect_forsyth_error(".15", ".15");  // digit code without colour sign
    expect_forsyth_error("+", "+");
    expect_forsyth_error("k-1", "-1");
    expect_forsyth_error("=p7", "=p");  // neutral units are not supported
}

TEST(ForsythErrors, BadCharacters) {
    expect_forsyth_error("k1K5/p7/1P6/4?", "?");
    expect_forsyth_error("k1K5 p7", " ");
    expect_forsyth_error("k1K5,p7", ",");
    expect_forsyth_error("k1K5/p7*", "*");
}

TEST(ForsythErrors, Counts) {
    expect_forsyth_error("65", "65");
    expect_forsyth_error("k64", "64");
    expect_forsyth_error("32/6p1/1p6/5Q2/K1k5/9", "9");
    expect_forsyth_error("0k", "0");
    expect_forsyth_error("08k", "08");
    expect_forsyth_error("64K", "K");  // a unit after h1
    expect_forsyth_error("rsbqkbsr/pppppppp/8/8/8/8/PPPPPPPP/RSBQKBSRK", "K");
}

TEST(ForsythErrors, Slashes) {
    expect_forsyth_error("k1K/p7", "k1K/");  // rank 8 has 3 squares
    expect_forsyth_error("32/6p1/1p6/5Q/K1k5", "5Q/");
    expect_forsyth_error("/k7", "/");   // leading '/'
    expect_forsyth_error("8//8", "/");  // empty rank
    expect_forsyth_error("64//", "/");
}

TEST(ForsythErrors, Empty) {
    try {
        parse_forsyth("  ", "e.inp", 3);
        ADD_FAILURE() << "empty Forsyth accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(e.line(), 3);
        EXPECT_NE(std::string(e.what()).find("empty Forsyth"), std::string::npos) << e.what();
    }
}

// ---------------------------------------------------------------------------------------------
// Walk codes (Popeye manuals py-engl.txt, py-fran.txt, py-deut.txt, list of piece walks)

TEST(WalkCodes, ManualCodes) {
    struct Row {
        Walk walk;
        const char *en, *fr, *de;
    };
    const Row rows[] = {
        {KING, "K", "R", "K"},   {QUEEN, "Q", "D", "D"}, {ROOK, "R", "T", "T"},        {BISHOP, "B", "F", "L"},
        {KNIGHT, "S", "C", "S"}, {PAWN, "P", "P", "B"},  {GRASSHOPPER, "G", "S", "G"}, {NIGHTRIDER, "N", "N", "N"},
    };
    for (const Row& r : rows) {
        SCOPED_TRACE(walk_info(r.walk).name);
        EXPECT_EQ(walk_code(r.walk, Language::English), r.en);
        EXPECT_EQ(walk_code(r.walk, Language::French), r.fr);
        EXPECT_EQ(walk_code(r.walk, Language::German), r.de);
        EXPECT_EQ(walk_from_code(r.en, Language::English), r.walk);
        EXPECT_EQ(walk_from_code(r.fr, Language::French), r.walk);
        EXPECT_EQ(walk_from_code(r.de, Language::German), r.walk);
    }
    // French `nr` is the bouncy nightrider (noctambule rebondissant), not the nightrider.
    EXPECT_EQ(walk_from_code("NR", Language::French), NO_WALK);
}

}  // namespace

// Forsyth letters follow the input language (py-deut.txt: B = Bauer, L = Laeufer, D = Dame,
// T = Turm; py-fran.txt: C = cavalier, F = fou, P = pion, R = roi).
TEST(Forsyth, LettersOfTheInputLanguage) {
    const auto de = parse_forsyth("4k3/8/8/8/8/8/4BL2/3DK2T", "de.inp", 3, Language::German);
    EXPECT_EQ(de[SQ_E2], make_piece(WHITE, PAWN));
    EXPECT_EQ(de[SQ_F2], make_piece(WHITE, BISHOP));
    EXPECT_EQ(de[SQ_D1], make_piece(WHITE, QUEEN));
    EXPECT_EQ(de[SQ_H1], make_piece(WHITE, ROOK));
    EXPECT_EQ(de[SQ_E8], make_piece(BLACK, KING));
    const auto fr = parse_forsyth("4r3/8/8/8/8/8/4PF2/2C1R3", "fr.inp", 3, Language::French);
    EXPECT_EQ(fr[SQ_E8], make_piece(BLACK, KING));
    EXPECT_EQ(fr[SQ_E2], make_piece(WHITE, PAWN));
    EXPECT_EQ(fr[SQ_F2], make_piece(WHITE, BISHOP));
    EXPECT_EQ(fr[SQ_C1], make_piece(WHITE, KNIGHT));
    EXPECT_EQ(to_forsyth(de, Language::German), "4k3/8/8/8/8/8/4BL2/3DK2T");
    EXPECT_THROW(parse_forsyth("4k3/8/8/8/8/8/4BN2/3QK3", "de.inp", 3, Language::German), InputError);
}

}  // namespace rebirth

namespace rebirth {
namespace {

// Position::put_for_analysis: a board built and changed square by square equals the same board
// set at once (units, key, consistency), whatever was there before.
TEST(Position, PutForAnalysisEqualsSettingTheBoard) {
    SetupRules kingless;
    kingless.require_white_king = kingless.require_black_king = false;
    rebirth::Setup empty;
    empty.side_to_move = BLACK;
    Position built;
    built.set(empty, kingless);
    for (const char* fen : {"4k3/8/8/3Q4/8/8/8/4K3 b - - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R b - - 0 1",
                            "8/8/2n5/8/5B2/8/6p1/K1k5 b - - 0 1"}) {
        rebirth::Setup target = parse_fen(fen);
        target.castling = 0;
        Position whole;
        whole.set(target, kingless);
        for (int s = 0; s < SQUARE_NB; ++s) built.put_for_analysis(Square(s), target.board[s]);
        std::string why;
        EXPECT_TRUE(built.is_consistent(&why)) << fen << ": " << why;
        EXPECT_EQ(built.key(), whole.key()) << fen;
        EXPECT_EQ(built.exact_key(), whole.exact_key()) << fen;
        EXPECT_EQ(built.pieces(), whole.pieces()) << fen;
    }
    for (int s = 0; s < SQUARE_NB; ++s) built.put_for_analysis(Square(s), Piece{});
    Position none;
    none.set(empty, kingless);
    EXPECT_EQ(built.key(), none.key());
    EXPECT_EQ(built.pieces(), 0u);
}

}  // namespace
}  // namespace rebirth
