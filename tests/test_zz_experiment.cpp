#include <gtest/gtest.h>
#include <chrono>
#include <random>
#include <cstdio>
#include "../src/io/popeye_parse.h"
#include "../src/solve/solve_internal.h"
#include "rebirth/movegen.h"
#include "rebirth/popeye_input.h"
#include "rebirth/rules.h"
#include "rebirth/setup.h"
#include "rebirth/solve.h"
namespace rebirth { namespace {
struct PlayedGame { std::string line, input; };
template <class Pick>
PlayedGame play_random_game(Position pos, int plies, const char* cond, Pick pick) {
    PlayedGame g; g.line = "\n"; int number = 1;
    for (int i = 0; i < plies; ++i) {
        MoveList list; generate_legal(pos, list);
        if (list.size() == 0) return {};
        const Move m = pick(pos, list);
        append_line_move(g.line, pos, m, Language::English, pos.side_to_move() == WHITE, number, true);
        g.line += i + 1 == plies ? " dia" : " ";
    }
    std::string board = to_fen(pos.to_setup()); board = board.substr(0, board.find(' '));
    for (char& c : board) c = c == 'N' ? 'S' : c == 'n' ? 's' : c;
    const std::string stip = "dia" + std::to_string(plies / 2) + (plies % 2 ? ".5" : "");
    g.input = "beginproblem stip " + stip + " fors " + board + (*cond ? std::string(" cond ") + cond : std::string()) + " endproblem";
    return g;
}
TEST(Experiment, RoundTrip) {
    const char* env = getenv("RT_CONDS");
    std::vector<std::string> conds;
    std::string all = env ? env : "Circe";
    size_t a = 0; while (true) { size_t b = all.find(',', a); conds.push_back(all.substr(a, b - a)); if (b == std::string::npos) break; a = b + 1; }
    const int plies = getenv("RT_PLIES") ? atoi(getenv("RT_PLIES")) : 10;
    const int games_per = getenv("RT_GAMES") ? atoi(getenv("RT_GAMES")) : 2;
    std::mt19937 rng(77);
    for (const std::string& cs : conds) {
        const char* cond = cs.c_str();
        const RuleSet rules = resolve_rules(parse_condition_words(cond, "test"), "test");
        SetupRules sr; sr.rules = &rules;
        const Position start(parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), sr);
        for (int game = 0; game < games_per; ++game) {
            const PlayedGame g = play_random_game(start, plies, cond, [&](const Position& pos, const MoveList& list) {
                std::vector<Move> captures;
                for (const Move& m : list) if (!pos.empty(m.to) || m.kind == MoveKind::EnPassant) captures.push_back(m);
                return !captures.empty() && rng() % 3 == 0 ? captures[rng() % captures.size()] : list[static_cast<int>(rng() % list.size())];
            });
            if (g.input.empty()) continue;
            SolveLimits lim; lim.max_seconds = 60;
            auto t0 = std::chrono::steady_clock::now();
            const SolveReport r = solve_problem_report(parse_popeye(g.input, "<t>")[0], 1, lim);
            double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            bool found = r.text.find(g.line + "\n") != std::string::npos;
            printf("%-28s plies %d  %6.2f s  sols %5d  %s %s\n", cond, plies, sec, r.solutions, r.timed_out ? "TIMEOUT" : found ? "found" : "MISSING", g.input.c_str());
            fflush(stdout);
        }
    }
}
}}
#include "rebirth/proof_bound.h"
#include "rebirth/proof_captures.h"
#include "rebirth/proof_tempo.h"
namespace rebirth { namespace {
TEST(Experiment, Bounds) {
    const char* fen = getenv("BX_FEN");
    const Position start(parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
    const Board target = parse_fen(std::string(fen) + " w - - 0 1").board;
    const Bitboard fixed = fixed_units(start, target);
    printf("need W %d B %d fixed %llx\n", proof_moves_needed(start, target, WHITE, fixed), proof_moves_needed(start, target, BLACK, fixed), (unsigned long long)fixed);
    for (int w = 6; w <= 12; ++w) for (int b = 6; b <= 12; ++b)
        if (proof_captures_feasible(start, target, fixed, {w, b})) { printf("captures feasible first at W %d B %d\n", w, b); }
}
}}
