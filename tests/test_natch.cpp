// Proof games against the Natch 3.3 test positions (../shared/reference/proofgames/natch.jsonl):
// every position is solved as Popeye's `dia n` and its games, in UCI notation, must be
// exactly the listed ones (verdicts unique, cooked and no_solution;
// where the list is only a lower bound, every listed game must be among rebirth's).

#include <gtest/gtest.h>

#include "test_util.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "rebirth/movegen.h"
#include "rebirth/notation.h"
#include "rebirth/popeye_input.h"
#include "rebirth/proof_bound.h"
#include "rebirth/proof_captures.h"
#include "rebirth/setup.h"
#include "rebirth/solve.h"

namespace rebirth {
namespace {

namespace fs = std::filesystem;

struct NatchCase {
    std::string id, fen, verdict;
    int plies = 0;
    int count = 0;
    bool exact = true;
    std::set<std::string> games;  // UCI, moves separated by blanks
};

std::vector<NatchCase> natch_cases() {
    std::vector<NatchCase> out;
    for (const auto& j : test::read_jsonl(fs::path(REBIRTH_SHARED_DIR) / "reference" / "proofgames" / "natch.jsonl")) {
        NatchCase c;
        c.id = j.at("id");
        c.fen = j.at("fen");
        c.verdict = j.at("verdict");
        c.plies = j.at("plies");
        c.count = j.at("solutions_count");
        c.exact = j.at("solutions_count_exact");
        for (const auto& g : j.at("solutions_uci")) c.games.insert(g.get<std::string>());
        out.push_back(c);
    }
    return out;
}

// The UCI text of a legal move: from, to (castling: the king's) and the promotion letter.
std::string uci(const Move& m) {
    std::string s = square_name(m.from) + square_name(m.to);
    if (m.promotion != NO_WALK)
        s += "?qrbn"[m.promotion == QUEEN ? 1 : m.promotion == ROOK ? 2 : m.promotion == BISHOP ? 3 : 4];
    return s;
}

// A solution line of Popeye's proof-game output ("  1.d2-d4 Sg8-h6   2.Bc1*h6 ... dia") replayed
// from the game array: its moves in UCI, or "" when a word is no legal move.
std::string line_to_uci(const std::string& line) {
    Position pos(parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
    std::istringstream in(line);
    std::string word, out;
    while (in >> word) {
        size_t i = 0;
        while (i < word.size() && std::isdigit(static_cast<unsigned char>(word[i]))) ++i;
        if (i > 0 && i < word.size() && word[i] == '.') word = word.substr(i + 1);
        if (word.empty() || word == "+" || word == "dia" || word == "ep.") continue;
        MoveList list;
        generate_legal(pos, list);
        bool found = false;
        for (const Move& m : list) {
            const std::string text = move_to_popeye(pos, m);
            if (text != word && text != word + " ep.") continue;
            if (!out.empty()) out += ' ';
            out += uci(m);
            UndoInfo u;
            pos.do_move(m, u);
            found = true;
            break;
        }
        if (!found) return "";
    }
    return out;
}

TEST(Natch, ProofGamesGiveTheListedGames) {
    int checked = 0;
    for (const NatchCase& c : natch_cases()) {
        std::string fen = c.fen;
        for (char& ch : fen) ch = ch == 'N' ? 'S' : ch == 'n' ? 's' : ch;  // Popeye: S = knight
        const std::string stip = "dia" + std::to_string(c.plies / 2) + (c.plies % 2 ? ".5" : "");
        const auto problems =
            parse_popeye("BeginProblem\nStipulation " + stip + "\nForsyth " + fen + "\nEndProblem\n", c.id);
        ASSERT_EQ(problems.size(), 1u) << c.id;
        const SolveReport report = solve_problem_report(problems[0], 0, SolveLimits{});
        std::set<std::string> games;
        for (const std::string& line : test::split_lines(report.text)) {
            if (line.find(" dia") == std::string::npos) continue;
            const std::string g = line_to_uci(line);
            EXPECT_FALSE(g.empty()) << c.id << ": cannot replay " << line;
            games.insert(g);
        }
        if (c.exact) {
            EXPECT_EQ(games, c.games) << c.id << " (" << c.verdict << ")";
        } else {
            for (const std::string& g : c.games) EXPECT_TRUE(games.count(g)) << c.id << ": missing " << g;
            EXPECT_GE(int(games.size()), c.count) << c.id;
        }
        EXPECT_EQ(games.empty(), c.verdict == "no_solution") << c.id;
        EXPECT_EQ(games.size() > 1, c.verdict == "cooked") << c.id;
        ++checked;
    }
    // natch.jsonl has 99 positions (the benchmark, scripts/bench-natch.sh, times them).
    EXPECT_EQ(checked, 99);
}

// The proof-game bounds never reject a position on a listed game: every game of natch.jsonl
// (all 99 positions, up to 44 half-moves) is replayed from the game array, and before each
// half-move each side's need (proof_bound.h) fits in its moves left and its pawns' captures
// in the captures left; the units settled_walls names (with the walls of the positions
// before, as the search keeps them) stay on their squares till the end, and the bounds hold
// with them as fixed units.
TEST(Natch, BoundsHoldAlongEveryListedGame) {
    int games = 0, positions = 0, walls = 0, cuts = 0;
    for (const NatchCase& c : natch_cases()) {
        const Board target = parse_fen(c.fen + " w - - 0 1").board;
        for (const std::string& game : c.games) {
            Position pos(parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
            Bitboard known = 0, touched = 0;
            std::vector<std::pair<Bitboard, Board>> walled;    // fixed squares and the board then
            std::vector<std::pair<Square, Square>> cut_pawns;  // file_cuts: each pawn's two squares
            std::istringstream in(game);
            std::vector<std::string> moves;
            for (std::string m; in >> m;) moves.push_back(m);
            ASSERT_EQ(int(moves.size()), c.plies) << c.id;
            ASSERT_TRUE(proof_bound_applies(pos, target));
            for (int i = 0; i <= c.plies; ++i) {
                const int left = c.plies - i;
                const Color stm = pos.side_to_move();
                EXPECT_LE(proof_moves_needed(pos, target, stm), (left + 1) / 2)
                    << c.id << " after " << i << ": " << game;
                EXPECT_LE(proof_moves_needed(pos, target, ~stm), left / 2) << c.id << " after " << i << ": " << game;
                EXPECT_TRUE(proof_captures_possible(pos, target, WHITE)) << c.id << " after " << i;
                EXPECT_TRUE(proof_captures_possible(pos, target, BLACK)) << c.id << " after " << i;
                const Bitboard fixed = fixed_units(pos, target);
                std::array<int, COLOR_NB> moves_left{};
                moves_left[stm] = (left + 1) / 2;
                moves_left[~stm] = left / 2;
                EXPECT_TRUE(proof_captures_feasible(pos, target, fixed, moves_left))
                    << c.id << " after " << i << ": " << game;
                // The units the budgets keep on their squares (the search's walls, inherited
                // from the positions before) stay till the end, and the bounds hold with them.
                const Bitboard kept = fixed_units(pos, target, known & ~touched);
                known = fixed_units(pos, target, kept | settled_walls(pos, target, kept, moves_left));
                walled.push_back({known, pos.to_setup().board});
                for (const auto& [squares, board] : walled)
                    for (Bitboard b = squares; b;) {
                        const Square s = pop_lsb(b);
                        ASSERT_EQ(pos.piece_on(s), board[s]) << c.id << " after " << i << ": " << square_name(s);
                    }
                for (Color side : {WHITE, BLACK})
                    EXPECT_LE(proof_moves_needed(pos, target, side, known), moves_left[side]) << c.id << " after " << i;
                EXPECT_TRUE(proof_captures_feasible(pos, target, known, moves_left)) << c.id << " after " << i;
                walls += popcount(known & ~fixed);
                // A pawn stands on one of each file cut's two squares till the end.
                for (Bitboard b = file_cuts(pos, target, fixed); b;) {
                    const Square q = pop_lsb(b);
                    cut_pawns.push_back({q, Square(q + 8)});
                    ++cuts;
                }
                for (const auto& [low, high] : cut_pawns)
                    ASSERT_TRUE(pos.piece_on(low).walk == PAWN || pos.piece_on(high).walk == PAWN)
                        << c.id << " after " << i << ": cut " << square_name(low) << "-" << square_name(high);
                ++positions;
                if (i == c.plies) break;
                MoveList list;
                generate_legal(pos, list);
                bool played = false;
                for (const Move& m : list) {
                    if (uci(m) != moves[i]) continue;
                    const Board before = pos.to_setup().board;
                    UndoInfo u;
                    pos.do_move(m, u);
                    touched = 0;
                    for (int s = 0; s < SQUARE_NB; ++s)
                        if (!(pos.piece_on(Square(s)) == before[s])) touched |= square_bb(Square(s));
                    played = true;
                    break;
                }
                ASSERT_TRUE(played) << c.id << ": " << moves[i] << " is not legal in " << game;
            }
            ++games;
        }
    }
    EXPECT_GE(games, 99);
    EXPECT_GT(walls, 1000);
    EXPECT_GT(cuts, 500);
    std::printf("%d games, %d positions, %d walls beyond the fixed units, %d file cuts\n", games, positions, walls,
                cuts);
}

}  // namespace
}  // namespace rebirth
