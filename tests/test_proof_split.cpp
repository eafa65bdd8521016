// Proof games split at a frontier (include/rebirth/proof_split.h): every item searched alone
// and the results assembled give solve_problem_report's text byte for byte, whatever the
// depth, with MaxSolutions too (each item returns its first n lines at most, the items after
// the play's n-th line are not needed); the frontier keeps every prefix once, deduplicates
// positions and follows Popeye's move order; the play ends where the target is reached early;
// bad items are refused.

#include <gtest/gtest.h>

#include "test_util.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "rebirth/movegen.h"
#include "rebirth/popeye_input.h"
#include "rebirth/popeye_order.h"
#include "rebirth/proof_split.h"
#include "rebirth/solve.h"

namespace rebirth {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = REBIRTH_SOURCE_DIR;

// The game array, where every dia starts.
Position game_array() { return Position(parse_fen(test::kGameArray)); }

// The plain move from `from` to `to`.
Move plain(Square from, Square to) {
    Move m;
    m.from = from;
    m.to = to;
    return m;
}

Problem problem_of(const std::string& text) { return parse_popeye(text, "test.inp").at(0); }

Problem file_problem(const fs::path& file, size_t index = 0) { return parse_popeye_file(file.string()).at(index); }

// What one process prints after the header.
std::string whole_text(const Problem& p) { return solve_problem_report(p, 1, SolveLimits{}).text; }

// The plan of `p` with every play cut at `depth`.
ProofGamePlan plan_at(const Problem& p, int depth) {
    ProofSplitOptions options;
    const ProofGamePlan free = plan_proof_games(p, options);
    for (size_t t = 0; t < free.twins.size(); ++t)
        for (size_t r = 0; r < free.twins[t].plays.size(); ++r) options.depths[{int(t), int(r)}] = depth;
    return plan_proof_games(p, options);
}

// Every item of `plan` searched alone, on one thread.
std::vector<std::vector<ProofPlayResults>> search_items(const Problem& p, const ProofGamePlan& plan) {
    std::vector<std::vector<ProofPlayResults>> results(plan.twins.size());
    for (size_t t = 0; t < plan.twins.size(); ++t) {
        const ProofTwinSolver solver(p, int(t));
        for (size_t r = 0; r < plan.twins[t].plays.size(); ++r) {
            const ProofPlayPlan& play = plan.twins[t].plays[r];
            ProofPlayResults res;
            if (!play.blocked) {
                res.start = solver.suffixes(int(r), {}, play.item_lengths(true), 1, SolveLimits{});
                for (const ProofFrontierNode& node : play.nodes)
                    res.nodes.push_back(
                        solver.suffixes(int(r), node.prefixes.front(), play.item_lengths(false), 1, SolveLimits{}));
            }
            results[t].push_back(std::move(res));
        }
    }
    return results;
}

// The split report of `p` at `depth`.
SolveReport split_report(const Problem& p, int depth) {
    const ProofGamePlan plan = plan_at(p, depth);
    EXPECT_TRUE(plan.splittable) << plan.reason;
    return assemble_proof_games(p, plan, search_items(p, plan), SolveLimits{});
}

// Knights to f3 and f6 in three moves: reached after two half-moves already, so no longer
// line may pass through the target (1.Sg1-f3 Sg8-f6 2.Sf3-g5 Sf6-g4 3.Sg5-f3 Sg4-f6 is none).
const char* kKnightsEarly =
    "beginproblem pieces white ke1 qd1 ra1 rh1 bc1 bf1 sb1 sf3 pa2 pb2 pc2 pd2 pe2 pf2 pg2 ph2 "
    "black ke8 qd8 ra8 rh8 bc8 bf8 sb8 sf6 pa7 pb7 pc7 pd7 pe7 pf7 pg7 ph7 stipulation dia3 endproblem";

// Series proof games (lengths count White's moves, Black passing): e2-e3 in one move, or in
// three (9 lines of lengths 1 and 3, none of 2: knight trips take two moves); the queen takes
// f7 with check on the last move only (2 lines); in exactly four moves the same takes f7
// before the end, where Black could not pass (no line); and Black alone playing Sb8-c6 with
// Duplex (White's play has no line).
const char* kSeriesE3 = "beginproblem stip ser-dia3 fors rsbqkbsr/pppppppp/8/8/8/4P3/PPPP1PPP/RSBQKBSR endproblem";
const char* kSeriesQueen = "beginproblem stip ser-dia3 fors rsbqkbsr/pppppQpp/8/8/4P3/8/PPPP1PPP/RSB1KBSR endproblem";
const char* kSeriesQueenExact4 =
    "beginproblem stip exact-ser-dia4 fors rsbqkbsr/ppppp1pp/8/7Q/4P3/8/PPPP1PPP/RSB1KBSR endproblem";
const char* kSeriesDuplex =
    "beginproblem stip ser-dia3 fors r1bqkbsr/pppppppp/2s5/8/8/8/PPPPPPPP/RSBQKBSR option duplex endproblem";

TEST(ProofSplit, AssembledTextIsTheSolversAtEveryDepth) {
    // Each problem with the depths it is cut at (the a=>b search is the slowest: one depth).
    const std::vector<std::pair<Problem, std::vector<int>>> problems = {
        {file_problem(kSource / "data/popeye/BEISPIEL_proof_005.inp"), {1, 2, 3}},            // twins dia7, dia7.5
        {file_problem(kSource / "data/popeye/BEISPIEL_proof_012.inp"), {1, 2, 3}},            // dia4, 5 solutions
        {file_problem(kSource / "data/popeye/BEISPIEL_atob_005.inp"), {2}},                   // a=>b3, 6 solutions
        {file_problem(kSource / "data/popeye/REGRESSIONS_4_37_to_4_41_003.inp"), {1, 2, 3}},  // Circe Assassin
        {file_problem(kSource / "data/popeye/REGRESSIONS_4_69_to_4_71_008.inp"), {1, 2, 3}},  // AntiCirce Symmetry
        {file_problem(kSource / "cluster/tests/data/proof_duplex.inp", 0), {1, 2, 3}},        // duplex dia
        {file_problem(kSource / "cluster/tests/data/proof_duplex.inp", 1), {1, 2, 3}},  // duplex, one play blocked
        {problem_of(kKnightsEarly), {1, 2, 3}},
        {file_problem(kSource / "data/popeye/BEISPIEL_proof_se_008.inp"), {1, 2, 3}},         // ser-dia12
        {file_problem(kSource / "data/popeye/REGRESSIONS_4_43_to_4_45_002.inp"), {1, 2, 3}},  // ser-a=>b12
        {problem_of(kSeriesE3), {1, 2}},
        {problem_of(kSeriesQueen), {1, 2}},
        {problem_of(kSeriesDuplex), {1, 2}},
    };
    for (const auto& [p, depths] : problems) {
        const SolveReport whole = solve_problem_report(p, 1, SolveLimits{});
        ASSERT_GT(whole.solutions, 0) << p.where.file;
        EXPECT_EQ(whole.proof_games.size(), size_t(whole.solutions)) << p.where.file;
        for (int depth : depths) {
            const SolveReport split = split_report(p, depth);
            EXPECT_EQ(split.text, whole.text) << p.where.file << " at depth " << depth;
            EXPECT_EQ(split.twin_solutions, whole.twin_solutions) << p.where.file;
            EXPECT_EQ(split.proof_games, whole.proof_games) << p.where.file << " at depth " << depth;
            EXPECT_EQ(split.status(), whole.status()) << p.where.file;
        }
    }
}

TEST(ProofSplit, PlayEndsWhereTheTargetIsReachedEarly) {
    const Problem p = problem_of(kKnightsEarly);
    const std::string whole = whole_text(p);
    EXPECT_NE(whole.find("\n  1.Sg1-f3 Sg8-f6 dia"), std::string::npos);
    EXPECT_EQ(whole.find("\n  1.Sg1-f3 Sg8-f6   2."), std::string::npos);  // the rule itself
    EXPECT_NE(whole.find("\n  1.Sg1-f3 Sg8-h6   2."), std::string::npos);  // longer lines exist

    const ProofGamePlan plan = plan_at(p, 2);
    const ProofPlayPlan& play = plan.twins.at(0).plays.at(0);
    EXPECT_EQ(play.item_lengths(true), (std::vector<int>{2}));
    EXPECT_EQ(play.item_lengths(false), (std::vector<int>{4, 6}));
    // The frontier leaves out the prefix that reaches the target.
    const ProofTwinSolver solver(p, 0);
    for (const ProofFrontierNode& node : play.nodes)
        for (const MoveLine& prefix : node.prefixes) EXPECT_NE(solver.line(0, prefix, {}), "\n  1.Sg1-f3 Sg8-f6 dia");
    EXPECT_EQ(play.order.size(), 399u);
    // And a search from there finds nothing, from one move earlier no line through it.
    const Move sf3 = plain(SQ_G1, SQ_F3), sf6 = plain(SQ_G8, SQ_F6);
    EXPECT_TRUE(solver.suffixes(0, {sf3, sf6}, {4, 6}, 1, SolveLimits{}).lines.at(1).empty());
    const ProofSuffixes from_sf3 = solver.suffixes(0, {sf3}, {6}, 1, SolveLimits{});
    ASSERT_FALSE(from_sf3.lines.at(0).empty());
    for (const MoveLine& suffix : from_sf3.lines[0]) EXPECT_FALSE(suffix.front() == sf6);
}

// The index of each move of `line` in Popeye's order of its position's moves.
std::vector<int> move_indices(Position pos, const MoveLine& line) {
    std::vector<int> out;
    for (const Move& m : line) {
        MoveList list;
        popeye_ordered_moves(pos, list);
        out.push_back(int(std::find(list.begin(), list.end(), m) - list.begin()));
        UndoInfo u;
        pos.do_move(m, u);
    }
    return out;
}

TEST(ProofSplit, FrontierKeepsEveryPrefixOnceInGenerationOrder) {
    const Problem p = file_problem(kSource / "data/popeye/BEISPIEL_proof_012.inp");
    const ProofGamePlan plan = plan_at(p, 3);
    ASSERT_TRUE(plan.splittable) << plan.reason;
    const ProofPlayPlan& play = plan.twins.at(0).plays.at(0);
    EXPECT_EQ(play.depth, 3);
    EXPECT_EQ(play.order.size(), 8902u);              // perft 3 of the game array: no prefix ends the play
    EXPECT_LT(play.nodes.size(), play.order.size());  // 1.e2-e3 e7-e6 2.d2-d3 = 1.d2-d3 e7-e6 2.e2-e3
    const Position start = game_array();
    std::vector<std::vector<int>> indices;
    std::vector<size_t> seen(play.nodes.size(), 0);
    int next_node = 0;
    for (const auto& [node, k] : play.order) {
        ASSERT_LT(size_t(node), play.nodes.size());
        // Nodes are numbered by their first prefix, prefixes listed in order within a node.
        if (seen[size_t(node)] == 0) {
            EXPECT_EQ(node, next_node++);
        }
        EXPECT_EQ(size_t(k), seen[size_t(node)]++);
        const MoveLine& prefix = play.nodes[size_t(node)].prefixes.at(size_t(k));
        indices.push_back(move_indices(start, prefix));
        // Every prefix of a node reaches its first prefix's position.
        Position a = start, b = start;
        UndoInfo u;
        for (const Move& m : prefix) a.do_move(m, u);
        for (const Move& m : play.nodes[size_t(node)].prefixes.front()) b.do_move(m, u);
        EXPECT_EQ(a.key(), b.key());
    }
    for (size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], play.nodes[i].prefixes.size());
    EXPECT_TRUE(std::is_sorted(indices.begin(), indices.end()));
    EXPECT_EQ(std::adjacent_find(indices.begin(), indices.end()), indices.end());
}

TEST(ProofSplit, DepthNearestTheTarget) {
    const Problem p = file_problem(kSource / "data/popeye/BEISPIEL_proof_012.inp");  // dia4 from the array
    auto depth = [&](int target, int max_depth = 4) {
        ProofSplitOptions options;
        options.target_nodes = target;
        options.max_depth = max_depth;
        const ProofGamePlan plan = plan_proof_games(p, options);
        EXPECT_TRUE(plan.splittable) << plan.reason;
        return plan.twins.at(0).plays.at(0).depth;
    };
    EXPECT_EQ(depth(1), 1);
    EXPECT_EQ(depth(16), 1);   // 20 nodes
    EXPECT_EQ(depth(40), 1);   // 20 is nearer than 400
    EXPECT_EQ(depth(300), 2);  // 400 is nearer than 20
    EXPECT_EQ(depth(5000, 2), 2);
    // A play of one half-move has no frontier: its start item searches everything.
    const ProofGamePlan one = plan_proof_games(
        problem_of("beginproblem pieces white ke1 qd1 ra1 rh1 bc1 bf1 sb1 sg1 pa2 pb2 pc2 pd2 pe4 pf2 pg2 ph2 "
                   "black ke8 qd8 ra8 rh8 bc8 bf8 sb8 sg8 pa7 pb7 pc7 pd7 pe7 pf7 pg7 ph7 stipulation dia0.5 "
                   "endproblem"),
        ProofSplitOptions{});
    ASSERT_TRUE(one.splittable) << one.reason;
    EXPECT_EQ(one.twins[0].plays[0].depth, 1);
    EXPECT_TRUE(one.twins[0].plays[0].nodes.empty());
}

// The four knights, exact-dia2 duplex: 4 + 4 solutions, all of length 4.
const char* kKnightsExactDuplex =
    "beginproblem pieces white ke1 qd1 ra1 rh1 bc1 bf1 sc3 sf3 pa2 pb2 pc2 pd2 pe2 pf2 pg2 ph2 "
    "black ke8 qd8 ra8 rh8 bc8 bf8 sc6 sf6 pa7 pb7 pc7 pd7 pe7 pf7 pg7 ph7 stipulation exact-dia2 option duplex "
    "endproblem";

// `p` with option MaxSolutions n.
Problem with_max_solutions(Problem p, int n) {
    p.options.max_solutions = n;
    return p;
}

// The number of lines of each play of each twin in `report` (proof_games).
std::map<std::pair<int, int>, int> lines_per_play(const SolveReport& report) {
    std::map<std::pair<int, int>, int> out;
    for (const PlayLine& g : report.proof_games) ++out[{g.twin, g.play}];
    return out;
}

// The items of `play` that proof_play_items_needed names from all of `res`.
size_t needed_of(const ProofPlayPlan& play, const ProofPlayResults& res) {
    if (play.blocked) return 0;
    std::vector<std::optional<ProofItemTally>> all{tally_of(res.start)};
    for (const ProofSuffixes& s : res.nodes) all.push_back(tally_of(s));
    const std::optional<size_t> needed = proof_play_items_needed(play, all);
    EXPECT_TRUE(needed.has_value());
    return needed.value_or(0);
}

TEST(ProofSplit, MaxSolutionsAssembledTextIsTheSolvers) {
    // Problems with several solutions: their plays' line counts (and MaxSolutions 1, 2, 5 and
    // each play's exact count) decide where the text ends.
    const std::vector<std::pair<Problem, std::vector<int>>> problems = {
        {file_problem(kSource / "data/popeye/BEISPIEL_proof_012.inp"), {1, 2, 3}},      // dia4, 5 solutions
        {file_problem(kSource / "data/popeye/BEISPIEL_proof_013.inp"), {1, 2, 3}},      // exact-dia4, the same
        {file_problem(kSource / "data/popeye/BEISPIEL_atob_005.inp"), {2}},             // a=>b3, 6 solutions
        {file_problem(kSource / "data/popeye/BEISPIEL_proof_005.inp"), {1, 2}},         // twins, 1 solution each
        {file_problem(kSource / "cluster/tests/data/proof_duplex.inp", 0), {1, 2, 3}},  // duplex dia, 4 + 4
        {file_problem(kSource / "cluster/tests/data/proof_duplex.inp", 1), {1, 2}},     // duplex, one play blocked
        {problem_of(kKnightsEarly), {1, 2, 3}},                                         // lengths 2, 4 and 6
        {problem_of(kKnightsExactDuplex), {1, 2, 3}},  // one length: the nodes after the n-th line are not needed
        {problem_of(kSeriesE3), {1, 2}},               // series: 1 line of length 1, 8 of length 3
        {problem_of(kSeriesDuplex), {1, 2}},
    };
    int partial = 0, complete = 0, unneeded = 0;
    for (const auto& [p, depths] : problems) {
        const std::map<std::pair<int, int>, int> counts = lines_per_play(solve_problem_report(p, 1, SolveLimits{}));
        std::vector<int> limits = {1, 2, 5};
        for (const auto& [play, n] : counts) limits.push_back(n);
        std::sort(limits.begin(), limits.end());
        limits.erase(std::unique(limits.begin(), limits.end()), limits.end());
        for (int n : limits) {
            const Problem q = with_max_solutions(p, n);
            const SolveReport whole = solve_problem_report(q, 1, SolveLimits{});
            (whole.partial ? partial : complete) += 1;
            for (int depth : depths) {
                const std::string what =
                    p.where.file + " with MaxSolutions " + std::to_string(n) + " at depth " + std::to_string(depth);
                const ProofGamePlan plan = plan_at(q, depth);
                ASSERT_TRUE(plan.splittable) << plan.reason;
                auto results = search_items(q, plan);
                for (size_t t = 0; t < plan.twins.size(); ++t)
                    for (size_t r = 0; r < plan.twins[t].plays.size(); ++r) {
                        const ProofPlayPlan& play = plan.twins[t].plays[r];
                        EXPECT_EQ(play.max_lines, n) << what;
                        if (play.blocked) continue;
                        // Each item returns n lines at most, its lengths counted together.
                        const ProofPlayResults& res = results[t][r];
                        for (size_t i = 0; i <= res.nodes.size(); ++i) {
                            size_t lines = 0;
                            for (const auto& l : (i == 0 ? res.start : res.nodes[i - 1]).lines) lines += l.size();
                            EXPECT_LE(lines, size_t(n)) << what;
                        }
                    }
                const SolveReport split = assemble_proof_games(q, plan, results, SolveLimits{});
                EXPECT_EQ(split.text, whole.text) << what;
                EXPECT_EQ(split.proof_games, whole.proof_games) << what;
                EXPECT_EQ(split.twin_solutions, whole.twin_solutions) << what;
                EXPECT_EQ(split.partial, whole.partial) << what;
                EXPECT_EQ(split.status(), whole.status()) << what;
                // The items after the needed ones do not count: left empty, the text is the same.
                for (size_t t = 0; t < plan.twins.size(); ++t)
                    for (size_t r = 0; r < plan.twins[t].plays.size(); ++r) {
                        ProofPlayResults& res = results[t][r];
                        if (plan.twins[t].plays[r].blocked) continue;
                        const size_t needed = needed_of(plan.twins[t].plays[r], res);
                        for (size_t i = needed; i <= res.nodes.size(); ++i) {
                            ASSERT_GT(i, 0u) << what;  // the start item is always needed
                            res.nodes[i - 1] = ProofSuffixes{};
                            ++unneeded;
                        }
                    }
                EXPECT_EQ(assemble_proof_games(q, plan, results, SolveLimits{}).text, whole.text) << what;
            }
        }
    }
    EXPECT_GT(partial, 10);
    EXPECT_GT(complete, 3);
    EXPECT_GT(unneeded, 1000) << unneeded;
}

// A series play splits after the series side's moves, each followed by the other side's pass:
// a prefix ends neither on the target nor with a check (no pass could follow), the games of the
// report hold the passes, and a prefix that gives check leaves nothing to search.
TEST(ProofSplit, SeriesPlaysSplitAtTheSeriesSidesMoves) {
    const Problem e3 = problem_of(kSeriesE3);
    const SolveReport whole = solve_problem_report(e3, 1, SolveLimits{});
    ASSERT_EQ(whole.proof_games.size(), 9u) << whole.text;
    for (const PlayLine& g : whole.proof_games) {
        ASSERT_EQ(g.moves.size() % 2, 1u);
        for (size_t i = 0; i < g.moves.size(); ++i) EXPECT_EQ(g.moves[i].is_null(), i % 2 == 1) << i;
    }
    const ProofGamePlan plan = plan_at(e3, 2);
    ASSERT_TRUE(plan.splittable) << plan.reason;
    const ProofPlayPlan& play = plan.twins.at(0).plays.at(0);
    EXPECT_EQ(play.lengths, (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(play.item_lengths(true), (std::vector<int>{1, 2}));
    EXPECT_EQ(play.item_lengths(false), (std::vector<int>{3}));
    const ProofTwinSolver solver(e3, 0);
    EXPECT_EQ(solver.game(0, {plain(SQ_G1, SQ_F3)}, {plain(SQ_F3, SQ_G1)}).size(), 3u);
    size_t prefixes = 0;
    for (const ProofFrontierNode& node : play.nodes) {
        Position first;
        for (size_t k = 0; k < node.prefixes.size(); ++k) {
            const MoveLine& prefix = node.prefixes[k];
            ASSERT_EQ(prefix.size(), 2u);
            Position pos = game_array();
            for (const Move& m : prefix) {
                EXPECT_TRUE(is_legal(pos, m));
                UndoInfo u;
                pos.do_move(m, u);
                EXPECT_FALSE(pos.in_check());
                pos.set_side_to_move_for_analysis(WHITE);  // Black passes
            }
            EXPECT_NE(solver.line(0, prefix, {}), "\n  1.e2-e3 dia");
            if (k == 0) first = pos;
            EXPECT_EQ(pos.key(), first.key());
            ++prefixes;
        }
    }
    EXPECT_EQ(prefixes, play.order.size());
    // 1.e2-e3 reaches the target: no prefix begins with it (20 first moves, 19 go on).
    for (const ProofFrontierNode& node : play.nodes)
        for (const MoveLine& prefix : node.prefixes) EXPECT_FALSE(prefix.front() == plain(SQ_E2, SQ_E3));

    // The queen takes f7 with check before the end: nothing goes on from there.
    const Problem exact = problem_of(kSeriesQueenExact4);
    const ProofTwinSolver queen(exact, 0);
    const MoveLine check = {plain(SQ_E2, SQ_E4), plain(SQ_D1, SQ_H5), plain(SQ_H5, SQ_F7)};
    const ProofSuffixes none = queen.suffixes(0, check, {4}, 1, SolveLimits{});
    ASSERT_EQ(none.lines.size(), 1u);
    EXPECT_TRUE(none.lines[0].empty());
    for (int depth : {1, 2, 3}) {
        const ProofGamePlan qplan = plan_at(exact, depth);
        ASSERT_TRUE(qplan.splittable) << qplan.reason;
        for (const ProofFrontierNode& node : qplan.twins.at(0).plays.at(0).nodes)
            for (const MoveLine& prefix : node.prefixes) EXPECT_FALSE(prefix == check);
        EXPECT_EQ(split_report(exact, depth).text, whole_text(exact)) << depth;
    }

    // StopOnShortSolutions needs each length's lines before the next is searched: whole.
    const ProofGamePlan short_stop =
        plan_proof_games(file_problem(kSource / "data/popeye/REGRESSIONS_4_43_to_4_45_004.inp"), ProofSplitOptions{});
    EXPECT_FALSE(short_stop.splittable);
    EXPECT_NE(short_stop.reason.find("StopOnShortSolutions"), std::string::npos) << short_stop.reason;
}

TEST(ProofSplit, MaxSolutionsItemsNeededFromTheResultsKnown) {
    // The four knights in exact-dia2 (4 solutions, 1.Sb1-c3 ... twice): one length, so the nodes
    // after the one with the second line are not needed (with dia2 they all are: their lines of
    // length 2, none, come first).
    const Problem p = with_max_solutions(
        problem_of("beginproblem pieces white ke1 qd1 ra1 rh1 bc1 bf1 sc3 sf3 pa2 pb2 pc2 pd2 pe2 pf2 pg2 ph2 "
                   "black ke8 qd8 ra8 rh8 bc8 bf8 sc6 sf6 pa7 pb7 pc7 pd7 pe7 pf7 pg7 ph7 stipulation exact-dia2 "
                   "endproblem"),
        2);
    const ProofGamePlan plan = plan_at(p, 1);
    const ProofPlayPlan& play = plan.twins.at(0).plays.at(0);
    const auto results = search_items(p, plan);
    const ProofPlayResults& res = results[0][0];
    std::vector<std::optional<ProofItemTally>> all{tally_of(res.start)};
    for (const ProofSuffixes& s : res.nodes) all.push_back(tally_of(s));
    const size_t needed = proof_play_items_needed(play, all).value();
    EXPECT_GT(needed, 1u);
    EXPECT_LT(needed, all.size());
    // The first `needed` items decide; one of them missing leaves it open; a timed-out one
    // among them ends the play there.
    std::vector<std::optional<ProofItemTally>> known(all.begin(), all.begin() + long(needed));
    known.resize(all.size());
    EXPECT_EQ(proof_play_items_needed(play, known), needed);
    auto gap = known;
    gap[needed - 1].reset();
    EXPECT_EQ(proof_play_items_needed(play, gap), std::nullopt);
    gap[0] = ProofItemTally{true, {}};
    EXPECT_EQ(proof_play_items_needed(play, gap), 1u);
    // Without MaxSolutions every item is needed, once all are in.
    ProofPlayPlan unlimited = play;
    unlimited.max_lines = 0;
    EXPECT_EQ(proof_play_items_needed(unlimited, known), std::nullopt);
    // Results that do not fit the plan: another number of items, of lengths.
    EXPECT_THROW(proof_play_items_needed(play, {}), std::logic_error);
    auto wrong = known;
    wrong[0]->lines.push_back(0);
    EXPECT_THROW(proof_play_items_needed(play, wrong), std::logic_error);
}

TEST(ProofSplit, OtherPlayStaysWhole) {
    const ProofGamePlan max =
        plan_proof_games(file_problem(kSource / "data/popeye/REGRESSIONS_4_55_to_4_57_026.inp"), ProofSplitOptions{});
    EXPECT_TRUE(max.splittable) << max.reason;  // MaxSolutions 5 splits
    EXPECT_EQ(max.twins.at(0).plays.at(0).max_lines, 5);
    const ProofGamePlan help =
        plan_proof_games(problem_of("beginproblem pieces white kc1 black ka1 stipulation h#1 endproblem"), {});
    EXPECT_FALSE(help.splittable);
    EXPECT_NE(help.reason.find("no proof game"), std::string::npos);
    // Position a without a black king: not playable (the single item reports it).
    const ProofGamePlan bad = plan_proof_games(
        problem_of("beginproblem pieces white ke1 stipulation a=>b1 pieces white ke2 black ke8 endproblem"), {});
    EXPECT_FALSE(bad.splittable);
    EXPECT_NE(bad.reason.find("not playable"), std::string::npos) << bad.reason;
}

TEST(ProofSplit, BadItemsAreRefused) {
    const Problem p = problem_of(kKnightsEarly);
    const ProofTwinSolver solver(p, 0);
    Move nowhere;
    nowhere.from = SQ_E4;
    nowhere.to = SQ_E5;
    EXPECT_THROW(solver.suffixes(0, {nowhere}, {4}, 1, SolveLimits{}), std::invalid_argument);  // illegal
    EXPECT_THROW(solver.suffixes(0, {}, {3}, 1, SolveLimits{}), std::invalid_argument);         // not searched
    EXPECT_THROW(solver.suffixes(1, {}, {2}, 1, SolveLimits{}), std::invalid_argument);         // no such play
    EXPECT_THROW(solver.suffixes(0, {plain(SQ_G1, SQ_F3), plain(SQ_G1, SQ_F3)}, {2}, 1, SolveLimits{}),
                 std::invalid_argument);  // a length not longer than the prefix
    EXPECT_THROW(solver.line(0, {nowhere}, {}), std::invalid_argument);
    EXPECT_THROW(ProofTwinSolver(p, 1), std::invalid_argument);
    EXPECT_THROW(ProofTwinSolver(problem_of("beginproblem pieces white kc1 black ka1 stipulation h#1 endproblem"), 0),
                 std::invalid_argument);
}

TEST(ProofSplit, ResultsThatDoNotFitAreRefused) {
    const Problem p = problem_of(kKnightsEarly);
    const ProofGamePlan plan = plan_at(p, 1);
    const auto results = search_items(p, plan);
    EXPECT_EQ(assemble_proof_games(p, plan, results, SolveLimits{}).text, whole_text(p));

    auto missing = results;
    missing[0][0].nodes.pop_back();
    EXPECT_THROW(assemble_proof_games(p, plan, missing, SolveLimits{}), std::logic_error);
    // A node with lines of length 6 (five moves after its one-move prefix).
    const auto with_lines = [](std::vector<ProofSuffixes>& nodes) {
        return std::find_if(nodes.begin(), nodes.end(), [](const ProofSuffixes& s) { return !s.lines.at(2).empty(); });
    };
    auto short_line = results;
    const auto some = with_lines(short_line[0][0].nodes);
    ASSERT_NE(some, short_line[0][0].nodes.end());
    ASSERT_EQ(some->lines[2][0].size(), 5u);
    some->lines[2][0].pop_back();
    EXPECT_THROW(assemble_proof_games(p, plan, short_line, SolveLimits{}), std::logic_error);
    auto illegal = results;
    const auto other = with_lines(illegal[0][0].nodes);
    ASSERT_NE(other, illegal[0][0].nodes.end());
    std::swap(other->lines[2][0][0], other->lines[2][0][1]);  // moves out of turn
    EXPECT_THROW(assemble_proof_games(p, plan, illegal, SolveLimits{}), std::invalid_argument);
}

TEST(ProofSplit, TimedOutItemEndsTheTwinAsATimeLimit) {
    const Problem p = file_problem(kSource / "data/popeye/BEISPIEL_proof_005.inp");  // twins a) and b)
    const ProofGamePlan plan = plan_at(p, 1);
    auto results = search_items(p, plan);
    results[1][0].nodes[3] = ProofSuffixes{{}, 10, 0.5, true};  // twin b)
    SolveLimits limits;
    limits.max_seconds = 7;
    const SolveReport report = assemble_proof_games(p, plan, results, limits);
    EXPECT_TRUE(report.timed_out);
    EXPECT_EQ(report.status(), "timeout");
    EXPECT_EQ(report.twin_solutions.size(), 1u);  // twin a) only
    EXPECT_NE(report.text.find("time limit of 7 s reached"), std::string::npos);
    // A real limit: an item stopped by its own time limit says so.
    const ProofSuffixes stopped =
        ProofTwinSolver(p, 1).suffixes(0, {}, plan.twins[1].plays[0].lengths, 1, SolveLimits{1e-9, false});
    EXPECT_TRUE(stopped.timed_out);
    EXPECT_TRUE(stopped.lines.empty());
}

}  // namespace
}  // namespace rebirth
