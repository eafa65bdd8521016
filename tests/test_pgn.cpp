// PGN of proof games (pgn.h, solve.h's proof_games_pgn): PGN export format (PGN standard,
// sections 8.1 and 8.2: tags, movetext with move numbers, SAN, comments, at most 79
// characters a line, "1..." when Black moves first, SetUp/FEN for another start). The
// Circe-family games are those Popeye 4.104 prints for its own test problems
// (data/popeye/*.out, shown beside each expectation), written in SAN by hand with Popeye's
// notation of each move with a rebirth as its comment; the Condition tag is the condition line
// of Popeye's header.

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "rebirth/movegen.h"
#include "rebirth/notation.h"
#include "rebirth/pgn.h"
#include "rebirth/popeye_input.h"
#include "rebirth/setup.h"
#include "rebirth/solve.h"
#include "test_util.h"

namespace rebirth {
namespace {

const std::vector<PgnTag> kRoster{{"Event", "?"}, {"Site", "?"},  {"Date", "????.??.??"}, {"Round", "1"},
                                  {"White", "?"}, {"Black", "?"}, {"Result", "*"}};
const std::string kRosterText =
    "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"1\"]\n[White \"?\"]\n[Black \"?\"]\n"
    "[Result \"*\"]\n";

// The moves of `line` (Popeye's notation, blank-separated) played from `start`.
std::vector<Move> moves_of(const Position& start, const std::vector<std::string>& line) {
    std::vector<Move> out;
    Position pos = start;
    for (const std::string& text : line) {
        MoveList list;
        generate_legal(pos, list);
        bool found = false;
        for (const Move& m : list)
            if (move_to_popeye(pos, m) == text) {
                out.push_back(m);
                UndoInfo u;
                pos.do_move(m, u);
                found = true;
                break;
            }
        if (!found) throw std::runtime_error("no move " + text);
    }
    return out;
}

TEST(Pgn, OrthodoxGameFromTheGameArray) {
    const Position start(parse_fen(test::kGameArray));
    const auto moves = moves_of(start, {"e2-e4", "e7-e5", "Qd1-h5", "Ke8-e7", "Qh5*e5"});
    EXPECT_EQ(pgn_game(kRoster, start, moves), kRosterText + "\n1. e4 e5 2. Qh5 Ke7 3. Qxe5# *\n\n");
}

TEST(Pgn, BlackMovesFirst) {
    Position start(parse_fen(test::kGameArray));
    start.set_side_to_move_for_analysis(BLACK);
    const auto moves = moves_of(start, {"e7-e5", "e2-e4", "Sg8-f6"});
    EXPECT_EQ(pgn_game({}, start, moves, "1-0"), "\n1... e5 2. e4 Nf6 1-0\n\n");
}

TEST(Pgn, LinesStayBelow80Characters) {
    const Position start(parse_fen(test::kGameArray));
    std::vector<std::string> line;
    for (int i = 0; i < 12; ++i) line.insert(line.end(), {"Sg1-f3", "Sg8-f6", "Sf3-g1", "Sf6-g8"});
    const std::string text = pgn_game({}, start, moves_of(start, line));
    std::string joined;
    for (const std::string& l : test::split_lines(text)) {
        EXPECT_LE(l.size(), 79u) << l;
        if (!l.empty()) joined += (joined.empty() ? "" : " ") + l;
    }
    std::string expected;
    for (int i = 0; i < 12; ++i) {
        const int n = 2 * i + 1;
        expected += std::to_string(n) + ". Nf3 Nf6 " + std::to_string(n + 1) + ". Ng1 Ng8 ";
    }
    EXPECT_EQ(joined, expected + "*");
}

TEST(Pgn, TagValuesAreEscaped) {
    const Position start(parse_fen(test::kGameArray));
    EXPECT_EQ(pgn_game({{"Event", "The \"Problemist\" \\ 1995"}}, start, {}),
              "[Event \"The \\\"Problemist\\\" \\\\ 1995\"]\n\n*\n\n");
}

TEST(Pgn, IllegalMoveIsRefused) {
    const Position start(parse_fen(test::kGameArray));
    const Move e2e5{SQ_E2, SQ_E5};
    EXPECT_THROW(pgn_game(kRoster, start, {e2e5}), std::invalid_argument);
}

// Solves the Popeye file data/popeye/NAME.inp on one thread and returns its games as PGN.
std::string solved_pgn(const std::string& name, size_t* games = nullptr) {
    const auto problems = parse_popeye_file(std::string(REBIRTH_SOURCE_DIR) + "/data/popeye/" + name + ".inp");
    EXPECT_EQ(problems.size(), 1u);
    const SolveReport report = solve_problem_report(problems.front(), 1, SolveLimits{});
    if (games) *games = report.proof_games.size();
    return proof_games_pgn(problems.front(), report);
}

// Popeye: "1.a2-a3 e7-e6   2.Ra1-a2 Bf8*a3[+wPa2]   3.b2-b4 Sg8-e7 dia" (Circe Assassin: the
// reborn pawn removes the rook, which Popeye does not write).
TEST(Pgn, CirceAssassinProofGame) {
    size_t games = 0;
    EXPECT_EQ(solved_pgn("REGRESSIONS_4_37_to_4_41_003", &games),
              kRosterText +
                  "[Composer \"reported P.Raican (orig. M.Caillaud?"
                  "?)\"]\n[Stipulation \"dia3\"]\n"
                  "[Condition \"Circe Assassin\"]\n[PlyCount \"6\"]\n\n"
                  "1. a3 e6 2. Ra2 Bxa3 {Bf8*a3[+wPa2]} 3. b4 Ne7 *\n\n");
    EXPECT_EQ(games, 1u);
}

// Popeye: "1.d2-d4 e7-e6   2.d4-d5 Bf8-e7   3.d5-d6 Ke8-f8   4.d6*e7[wPe7->d2] dia" (Anti-Circe
// Symmetry: the capturer goes to its rebirth square).
TEST(Pgn, AntiCirceProofGame) {
    EXPECT_EQ(solved_pgn("REGRESSIONS_4_69_to_4_71_008"),
              kRosterText +
                  "[Stipulation \"dia3.5\"]\n[Condition \"AntiCirce Symmetry\"]\n[PlyCount \"7\"]\n\n"
                  "1. d4 e6 2. d5 Be7 3. d6 Kf8 4. dxe7 {d6*e7[wPe7->d2]} *\n\n");
}

// Popeye, a=>b1.5 with White first under Cage Circe:
//   "1.Qb3*d5[+bPc2] Ke8-d7   2.Qd5-f3 a=>b"
//   "1.Qb3*d5[+bPf3] Ke8-d7   2.Qd5*f3[+bPc2] a=>b"
// Position a is the start: SetUp and its FEN (castling rights of the kings and rooks at home).
TEST(Pgn, CageCirceAToB) {
    const std::string head =
        "[Stipulation \"a=>b1.5\"]\n[Condition \"Circe Cage\"]\n[SetUp \"1\"]\n"
        "[FEN \"rnb1kbnr/ppp1pppp/3q4/3p4/8/1QP5/PP1PPPPP/RNB1KBNR w KQkq - 0 1\"]\n"
        "[PlyCount \"3\"]\n\n";
    std::string second = kRosterText + head;
    second.replace(second.find("[Round \"1\"]"), 11, "[Round \"2\"]");
    EXPECT_EQ(solved_pgn("REGRESSIONS_4_51_to_4_53_022"),
              kRosterText + head + "1. Qxd5 {Qb3*d5[+bPc2]} Kd7 2. Qf3 *\n\n" + second +
                  "1. Qxd5 {Qb3*d5[+bPf3]} Kd7 2. Qxf3 {Qd5*f3[+bPc2]} *\n\n");
}

// Duplex: White's game, then Black's, which starts from the game array with Black to move.
TEST(Pgn, DuplexProofGameWritesBothPlays) {
    const auto problems = parse_popeye(
        "BeginProblem\nstip dia1\noption duplex\nforsyth rsbqkb1r/pppppppp/5s2/8/8/5S2/PPPPPPPP/RSBQKB1R\nEndProblem\n",
        "duplex.inp", ParseMode::Strict);
    const SolveReport report = solve_problem_report(problems.front(), 1, SolveLimits{});
    ASSERT_EQ(report.proof_games.size(), 2u);
    EXPECT_EQ(report.proof_games[1].first, BLACK);
    std::string second = kRosterText;
    second.replace(second.find("[Round \"1\"]"), 11, "[Round \"2\"]");
    EXPECT_EQ(proof_games_pgn(problems.front(), report),
              kRosterText + "[Stipulation \"dia1\"]\n[PlyCount \"2\"]\n\n1. Nf3 Nf6 *\n\n" + second +
                  "[Stipulation \"dia1\"]\n[SetUp \"1\"]\n"
                  "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1\"]\n[PlyCount \"2\"]\n\n"
                  "1... Nf6 2. Nf3 *\n\n");
}

}  // namespace
}  // namespace rebirth
