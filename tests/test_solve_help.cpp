// Help and series play (src/solve/solve_help.cpp, front end src/solve/solve.cpp) against Popeye 4.104's
// output for every reference problem of the groups help and series (index.jsonl).
//
// For each problem: format_header + solve_problem of every problem of NAME.inp is compared
// with NAME.out byte for byte, partial outputs (MaxSolutions / StopOnShortSolutions)
// included: Popeye's output is deterministic and rebirth reproduces its search order. The
// one exception is Popeye's intelligent mode (Option Intelligent), which finds help-play
// solutions by another search whose order rebirth does not reproduce: there the solution
// lines are compared as a multiset and every other line in order.

#include <gtest/gtest.h>

#include "test_util.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "rebirth/popeye_input.h"
#include "rebirth/popeye_output.h"
#include "rebirth/solve.h"

namespace rebirth {
namespace {

using rebirth::test::read_text;
using rebirth::test::split_lines;

namespace fs = std::filesystem;

const fs::path kProblems = fs::path(REBIRTH_SHARED_DIR) / "reference" / "problems";

// A solution line starts with a move number ("  1.", " 10.").
bool is_solution_line(const std::string& line) {
    size_t i = line.find_first_not_of(' ');
    return i != std::string::npos && i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])) &&
           line.find('.') != std::string::npos;
}

struct Case {
    std::string name;
    bool intelligent = false;  // Option Intelligent: Popeye's other search order
};

std::vector<Case> help_and_series_cases() {
    std::vector<Case> cases;
    std::ifstream in(kProblems / "index.jsonl");
    for (std::string line; std::getline(in, line);) {
        if (line.empty()) continue;
        const auto j = nlohmann::json::parse(line);
        const std::string group = j.at("group");
        bool intelligent = false;
        for (const auto& o : j.at("options"))
            if (o.get<std::string>().rfind("Intelligent", 0) == 0) intelligent = true;
        if (group == "help" || group == "series") cases.push_back({j.at("name"), intelligent});
    }
    return cases;
}

std::string solve_file(const fs::path& inp) {
    std::string out;
    for (const Problem& p : parse_popeye_file(inp.string())) out += format_header(p) + solve_problem(p, 1);
    return out;
}

TEST(SolveHelp, ReferenceProblems) {
    const std::vector<Case> cases = help_and_series_cases();
    ASSERT_FALSE(cases.empty()) << "no help/series problems in " << kProblems / "index.jsonl";
    int exact = 0, intelligent = 0;
    for (const Case& c : cases) {
        const std::string expected = read_text(kProblems / (c.name + ".out"));
        std::string got;
        try {
            got = solve_file(kProblems / (c.name + ".inp"));
        } catch (const std::exception& e) {
            ADD_FAILURE() << c.name << ": " << e.what();
            continue;
        }
        if (!c.intelligent) {
            EXPECT_EQ(got, expected) << c.name;
            exact += got == expected;
            continue;
        }
        std::vector<std::string> a = split_lines(got), b = split_lines(expected), a_sol, b_sol, a_rest, b_rest;
        for (const auto& l : a) (is_solution_line(l) ? a_sol : a_rest).push_back(l);
        for (const auto& l : b) (is_solution_line(l) ? b_sol : b_rest).push_back(l);
        std::sort(a_sol.begin(), a_sol.end());
        std::sort(b_sol.begin(), b_sol.end());
        EXPECT_EQ(a_sol, b_sol) << c.name;
        EXPECT_EQ(a_rest, b_rest) << c.name;
        intelligent += a_sol == b_sol && a_rest == b_rest;
    }
    std::printf("help/series reference problems: %zu, byte-exact %d, intelligent mode with the same lines %d\n",
                cases.size(), exact, intelligent);
}

}  // namespace
}  // namespace rebirth

namespace rebirth {
namespace {

// The solution lines ("  1." ...) of the only problem of Popeye input `text`, sorted (their
// order follows Popeye's move generation order, which these tests do not fix).
std::vector<std::string> solution_lines(const std::string& text, int threads) {
    const std::vector<Problem> problems = parse_popeye(text, "inline.inp");
    EXPECT_EQ(problems.size(), 1u);
    std::vector<std::string> lines;
    for (const std::string& l : split_lines(solve_problem(problems.at(0), threads)))
        if (is_solution_line(l)) lines.push_back(l);
    std::sort(lines.begin(), lines.end());
    return lines;
}

// White Kh8 Bg8 Ph7 Ph5 Pd2, Black Ba1 Kb2 Pd3. The black king on b2 screens the bishop a1
// from the white king h8, which cannot move (g8, h7 own units, g7 on the bishop's line once
// it opens). Black's king may go to a3, b1, c1, c2 (a2 and b3 are guarded by Bg8, c3 by
// Pd2); each of these opens the diagonal, and White can neither capture a1 nor interpose
// (Bg8 runs on light squares, Pd2 is blocked by Pd3): every black move mates. Black's other
// units cannot move (Ba1 is shut in, Pd3 is blocked).
const char* const kForcedMateSetup = "pieces white kh8 bg8 ph7h5 pd2 black ba1 kb2 pd3\n";

// hs#1: White plays, then Black must be forced to mate. White's moves: Kg7 (Black's king
// moves are then checks with flights f8, f7, g6, h6), a bishop move (g8 opens as a flight,
// and Bb3/Ba2 can be taken), or h5-h6, which changes nothing: the only key. Every black
// reply mates, and each is a line of its own.
TEST(SolveHelp, HelpSelfMateForcesEveryReplyToMate) {
    const std::string input =
        std::string("BeginProblem\n") + kForcedMateSetup + "stip hs#1\noption noboard\nEndProblem\n";
    const std::vector<std::string> want = {"  1.h5-h6 Kb2-a3 #", "  1.h5-h6 Kb2-b1 #", "  1.h5-h6 Kb2-c1 #",
                                           "  1.h5-h6 Kb2-c2 #"};
    EXPECT_EQ(solution_lines(input, 1), want);
    EXPECT_EQ(solution_lines(input, 4), want);
}

// hr#1 of the same position: White may not be able to mate first (it has no check at all:
// Bg8 runs on light squares, b2 is dark); after 1.h5-h6 Black can mate and must, with each
// of its four mates. After any other white move Black has no mate (see above), so that
// move does not solve.
TEST(SolveHelp, HelpReflexMateWritesEachObligatoryMate) {
    const std::string input =
        std::string("BeginProblem\n") + kForcedMateSetup + "stip hr#1\noption noboard\nEndProblem\n";
    const std::vector<std::string> want = {"  1.h5-h6 Kb2-a3 #", "  1.h5-h6 Kb2-b1 #", "  1.h5-h6 Kb2-c1 #",
                                           "  1.h5-h6 Kb2-c2 #"};
    EXPECT_EQ(solution_lines(input, 1), want);
}

// A help-self play with no key: in the same position without Ph5, White has no waiting move
// (Kg7 and every bishop move spoil the mates, see above; Pd2 and Ph7 are blocked).
TEST(SolveHelp, HelpSelfMateWithoutWaitingMoveHasNoSolution) {
    const std::string input =
        "BeginProblem\npieces white kh8 bg8 ph7 pd2 black ba1 kb2 pd3\nstip hs#1\noption noboard\nEndProblem\n";
    EXPECT_TRUE(solution_lines(input, 1).empty());
}

// 1->ser-#1: the intro move is made by the side that does not start the main play (Black,
// since White plays the ser-#); then White mates in one. White Kf7 Rg1 Ph6, Black Kh8 Ph7
// Pa7: Black's only moves are a7-a6 and a7-a5 (Kh8 has no flight, Ph7 is blocked), and
// after either White mates with Rg1-g8 (g8 guarded by Kf7, h7 own pawn, g7 guarded); no
// other white move checks. The numbering restarts at 1 for the main play, as Popeye's line
// writer does after an intro series.
TEST(SolveHelp, IntroMoveThenSeriesMate) {
    const std::string input =
        "BeginProblem\npieces white kf7 rg1 ph6 black kh8 ph7 pa7\nstip 1->ser-#1\noption noboard\nEndProblem\n";
    const std::vector<std::string> want = {"  1.a7-a5   1.Rg1-g8 #", "  1.a7-a6   1.Rg1-g8 #"};
    EXPECT_EQ(solution_lines(input, 1), want);
    EXPECT_EQ(solution_lines(input, 4), want);
}

// Option Intelligent (src/solve/help_pictures.cpp: help play follows the positions found by the
// searches towards each mate picture) against the plain exhaustive search, on random
// positions: a White king with one or two rooks, bishops or knights (castling rights now and then, for Black too)
// against a Black king with three to six, h#2.5 (five half-moves, White first), h#3 (six, Black first), ser-h#3, and
// with one or two Black units h=2.5, h=3 and ser-h=3. Both searches must print the same solutions; a picture that
// misses a mate, a budget too small or a parry test too strict shows up as a missing line. Popeye's own
// intelligent-mode problems are in data/popeye (compared with Popeye's output by test_popeye_suite).
TEST(SolveHelp, IntelligentModeFindsThePlainSolutions) {
    std::mt19937 rng(20261126);
    const char* const walks = "qrbsp";
    auto square = [](int s) { return std::string{char('a' + s % 8), char('1' + s / 8)}; };
    int positions = 0, with_solutions = 0, lines = 0, stalemates = 0;
    for (int trial = 0; trial < 600 && positions < 90; ++trial) {
        std::array<char, 64> board{};
        std::string white = "k", black = "k";
        const bool castle = rng() % 4 == 0;
        // Black castling rights (its king and rooks at home) now and then too: the mated side's
        // castling spares it a move only in some pictures.
        const bool black_castles = !castle && rng() % 4 == 0;
        int wk = castle ? 4 : int(rng() % 64), bk = black_castles ? 60 : int(rng() % 64);
        if (wk == bk || (black_castles && (wk == 56 || wk == 63))) continue;
        board[wk] = board[bk] = 1;
        white += square(wk);
        black += square(bk);
        if (castle) {
            board[0] = board[7] = 1;
            white += " ra1h1";
        }
        if (black_castles) {
            board[56] = board[63] = 1;
            black += " ra8h8";
        }
        auto add_units = [&](std::string& side, int n, bool is_white) {
            for (int i = 0; i < n; ++i) {
                const char w = walks[(is_white ? 1 : 0) + rng() % (is_white ? 3 : 5)];
                int s = int(rng() % 64);
                if (board[s] || (w == 'p' && (s < 8 || s >= 56))) continue;
                if ((is_white && castle && s < 8) || (!is_white && black_castles && s >= 56)) continue;
                board[s] = 1;
                side += std::string(" ") + w + square(s);
            }
        };
        add_units(white, castle ? 1 : 1 + int(rng() % 2), true);
        add_units(black, trial % 2 == 1 ? 1 + int(rng() % 2) : 3 + int(rng() % 4), false);
        // Stalemates need a sparse defence: with one or two Black units, the =-plays.
        const bool sparse = trial % 2 == 1;
        const std::vector<const char*> stips = sparse ? std::vector<const char*>{"h=2.5", "h=3", "ser-h=3"}
                                                      : std::vector<const char*>{"h#2.5", "h#3", "ser-h#3"};
        for (const char* stip : stips) {
            const std::string body =
                "pieces white " + white + " black " + black + "\nstip " + stip + "\noption noboard";
            std::vector<std::string> plain, smart;
            try {
                plain = solution_lines("BeginProblem\n" + body + "\nEndProblem\n", 1);
                if (plain.size() > 3000) continue;  // a flood of mates: more time than insight
                smart = solution_lines("BeginProblem\n" + body + " intelligent\nEndProblem\n", 1);
            } catch (const std::exception&) {
                continue;  // not a legal diagram (a king in check on the wrong side...)
            }
            ++positions;
            EXPECT_EQ(smart, plain) << body;
            // Shorter plays are found before, without pictures: count the full-length lines.
            const int full = int(std::count_if(plain.begin(), plain.end(),
                                               [](const std::string& l) { return l.find("3.") != std::string::npos; }));
            with_solutions += full > 0;
            stalemates += full > 0 && sparse;
            lines += full;
        }
    }
    std::printf("intelligent mode: %d plays, %d with full-length solutions (%d lines), %d of them stalemates\n",
                positions, with_solutions, lines, stalemates);
    EXPECT_GE(positions, 50);
    EXPECT_GE(with_solutions, 5);  // the comparison must see real solutions
    EXPECT_GE(stalemates, 3);
}

// Series helpmates in intelligent mode with White pawns, where the goal side stands still
// until its mating move (help_pictures.cpp: still_distances for the series side, a pawn's
// mating capture needing a victim, parries tried in every walk a Black pawn may end in):
// a White king with one or two pawns and at most one piece against a Black king with three to
// six units, ser-h#2 to ser-h#4, against the plain search.
TEST(SolveHelp, IntelligentSeriesWithPawnsFindsThePlainSolutions) {
    std::mt19937 rng(20261127);
    auto square = [](int s) { return std::string{char('a' + s % 8), char('1' + s / 8)}; };
    int positions = 0, with_solutions = 0, lines = 0, pawn_mates = 0, pawn_mate_plays = 0;
    for (int trial = 0; trial < 8000 && positions < 480; ++trial) {
        std::array<char, 64> board{};
        // The Black king in the upper half, the White pawns below it: mates by a pawn happen.
        const int bk = 24 + int(rng() % 40);
        int wk = int(rng() % 64);
        if (wk == bk) continue;
        board[wk] = board[bk] = 1;
        std::string white = "k", black = "k";
        white += square(wk);
        black += square(bk);
        auto add = [&](std::string& side, char w, int lo, int hi) {
            const int s = lo + int(rng() % (hi - lo));
            if (board[s]) return;
            board[s] = 1;
            side += std::string(" ") + w + square(s);
        };
        const int pawns = 1 + int(rng() % 2);
        for (int i = 0; i < pawns; ++i) {
            // Two ranks below the king, a file apart at most: one step from giving check,
            // now and then with a Black unit to take diagonally in front of it.
            const int s = bk - 17 + int(rng() % 3);
            if (s < 8 || s >= 56 || std::abs(s % 8 - bk % 8) > 1 || board[s]) continue;
            add(white, 'p', s, s + 1);
            const int victim = s + 7 + 2 * int(rng() % 2);
            if (rng() % 2 && std::abs(victim % 8 - s % 8) == 1) add(black, "qrbs"[rng() % 4], victim, victim + 1);
        }
        if (rng() % 2) add(white, "qrbs"[rng() % 4], 0, 64);
        // Black units mostly next to their king (blocks), some further off.
        const int units = 3 + int(rng() % 4);
        for (int i = 0; i < units; ++i) {
            const char w = "qrbspp"[rng() % 6];
            const int near = bk + 8 * (int(rng() % 3) - 1) + int(rng() % 3) - 1;
            if (rng() % 3 && near >= 8 && near < 56 && std::abs(near % 8 - bk % 8) <= 1)
                add(black, w, near, near + 1);
            else
                add(black, w, w == 'p' ? 8 : 0, w == 'p' ? 56 : 64);
        }
        // Now and then a Black pawn about to promote: a blocker in any walk.
        if (rng() % 2) add(black, 'p', 8, 16);
        for (const char* stip : {"ser-h#2", "ser-h#3", "ser-h#4"}) {
            const std::string body =
                "pieces white " + white + " black " + black + "\nstip " + stip + "\noption noboard";
            std::vector<std::string> plain, smart;
            try {
                plain = solution_lines("BeginProblem\n" + body + "\nEndProblem\n", 1);
                if (plain.size() > 3000) continue;
                smart = solution_lines("BeginProblem\n" + body + " intelligent\nEndProblem\n", 1);
            } catch (const std::exception&) {
                continue;  // not a legal diagram
            }
            ++positions;
            EXPECT_EQ(smart, plain) << body;
            with_solutions += !plain.empty();
            lines += int(plain.size());
            // Mates by a pawn's capture (Popeye writes b3*c4 #): the victim rule at work.
            static const std::regex pawn_takes(R"( [a-h][1-8]\*[a-h][1-8](=[A-Z])? #$)");
            const int n = int(std::count_if(plain.begin(), plain.end(),
                                            [](const std::string& l) { return std::regex_search(l, pawn_takes); }));
            pawn_mates += n;
            pawn_mate_plays += n > 0;
        }
    }
    std::printf(
        "intelligent series with pawns: %d plays, %d with solutions (%d lines), %d with mates by a pawn's "
        "capture (%d lines)\n",
        positions, with_solutions, lines, pawn_mate_plays, pawn_mates);
    EXPECT_GE(positions, 400);
    EXPECT_GE(with_solutions, 30);
    EXPECT_GE(pawn_mate_plays, 5);
}

// A series helpmate whose mates include en passant captures (3.d7-d5 e5*d6 ep. #): the
// capturing pawn's square d6 holds no victim, so intelligent mode must not ask for one there.
// The 15 lines are Popeye 4.104's (plain and with Option Intelligent, which prints them in
// another order).
TEST(SolveHelp, IntelligentSeriesMateByEnPassant) {
    const std::string body =
        "pieces white kb1 rd1 bb5 pe5 black ke7 qe8 bd8 rh8 sg8 pd7 pe6 pf7\nstip ser-h#3\noption noboard";
    std::vector<std::string> popeye = {
        "  1.d7-d6   2.Qe8-f8   3.Sg8-f6 e5*d6 #",     "  1.d7-d6   2.Sg8-f6   3.Qe8-f8 e5*d6 #",
        "  1.d7-d6   2.Sg8-f6   3.Rh8-f8 e5*d6 #",     "  1.Qe8-f8   2.d7-d6   3.Sg8-f6 e5*d6 #",
        "  1.Qe8-f8   2.Ke7-e8   3.Sg8-e7 Bb5*d7 #",   "  1.Qe8-f8   2.Sg8-f6   3.Sf6-e8 Rd1*d7 #",
        "  1.Qe8-f8   2.Sg8-f6   3.d7-d5 e5*d6 ep. #", "  1.Qe8-f8   2.Sg8-f6   3.d7-d6 e5*d6 #",
        "  1.Sg8-f6   2.d7-d6   3.Qe8-f8 e5*d6 #",     "  1.Sg8-f6   2.d7-d6   3.Rh8-f8 e5*d6 #",
        "  1.Sg8-f6   2.Qe8-f8   3.Sf6-e8 Rd1*d7 #",   "  1.Sg8-f6   2.Qe8-f8   3.d7-d5 e5*d6 ep. #",
        "  1.Sg8-f6   2.Qe8-f8   3.d7-d6 e5*d6 #",     "  1.Sg8-f6   2.Rh8-f8   3.d7-d5 e5*d6 ep. #",
        "  1.Sg8-f6   2.Rh8-f8   3.d7-d6 e5*d6 #"};
    std::vector<std::string> plain = solution_lines("BeginProblem\n" + body + "\nEndProblem\n", 1);
    std::vector<std::string> smart = solution_lines("BeginProblem\n" + body + " intelligent\nEndProblem\n", 1);
    std::sort(popeye.begin(), popeye.end());  // solution_lines sorts
    EXPECT_EQ(plain, popeye);
    EXPECT_EQ(smart, popeye);
}

}  // namespace
}  // namespace rebirth
