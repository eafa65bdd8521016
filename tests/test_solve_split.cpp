// Solving split by root moves (plan_solve / solve_fragment / assemble_solve): for every
// reference problem and every problem of data/problems that splits, the fragments computed
// one by one and assembled give solve_problem_report's text byte for byte.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include "rebirth/error.h"
#include "rebirth/popeye_input.h"
#include "rebirth/solve.h"

namespace rebirth {
namespace {

namespace fs = std::filesystem;

// The .inp files of one directory, sorted.
std::vector<std::string> inputs(const fs::path& dir) {
    std::vector<std::string> out;
    if (!fs::is_directory(dir)) return out;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".inp") out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> all_inputs() {
    std::vector<std::string> out = inputs(fs::path(REBIRTH_SHARED_DIR) / "reference" / "problems");
    for (const std::string& f : inputs(fs::path(REBIRTH_SOURCE_DIR) / "data" / "problems")) out.push_back(f);
    return out;
}

class SolveSplit : public testing::TestWithParam<std::string> {};

// Every splittable problem of the file: assembled fragments == the whole solve.
TEST_P(SolveSplit, AssembledEqualsWhole) {
    const std::vector<Problem> problems = parse_popeye_file(GetParam());
    int split = 0;
    for (const Problem& p : problems) {
        const SolvePlan plan = plan_solve(p);
        if (!plan.splittable) continue;
        ++split;
        const SolveReport whole = solve_problem_report(p, 2, SolveLimits{});
        std::vector<SolveFragment> fragments;
        for (const SolveRootItem& item : plan.items) fragments.push_back(solve_fragment(p, item, 2, SolveLimits{}));
        const SolveReport joined = assemble_solve(p, plan, fragments, SolveLimits{});
        EXPECT_EQ(joined.text, whole.text) << GetParam() << " problem at line " << p.where.line;
        EXPECT_EQ(joined.status(), whole.status());
        EXPECT_EQ(joined.twin_solutions, whole.twin_solutions);
        // The fragments' data in output order (twin, play, length, root move) are the report's.
        std::vector<PlayLine> lines;
        std::vector<PlayTree> trees;
        for (const SolvePlan::Twin& twin : plan.twins)
            for (const SolvePlan::Phase& ph : twin.phases)
                for (int len = 0; len < ph.lengths; ++len)
                    for (int r = 0; r < ph.roots; ++r) {
                        const SolveFragment& f = fragments[size_t(ph.first_item + r)];
                        if (size_t(len) < f.lines.size())
                            lines.insert(lines.end(), f.lines[size_t(len)].begin(), f.lines[size_t(len)].end());
                        if (len == 0) trees.insert(trees.end(), f.trees.begin(), f.trees.end());
                    }
        EXPECT_EQ(lines, whole.lines) << GetParam() << " problem at line " << p.where.line;
        EXPECT_EQ(trees, whole.trees) << GetParam() << " problem at line " << p.where.line;
    }
    if (split == 0) GTEST_SKIP() << "no splittable problem";
}

// Every problem that does not split (proof games, MaxSolutions, set play of battle play, intro
// moves, ...: what a cluster worker answers whole): its report rendered again from its outputs
// alone (render_solve_report) is the same report (text, status, counts, the solutions as
// data), and a move changed in one of its lines or trees is refused.
class UnsplitReports : public testing::TestWithParam<std::string> {};

TEST_P(UnsplitReports, RenderFromTheirOutputs) {
    const std::vector<Problem> problems = parse_popeye_file(GetParam());
    int whole_ones = 0;
    for (const Problem& p : problems) {
        if (p.stipulation.retro() || plan_solve(p).splittable) continue;
        SolveReport whole;
        try {
            whole = solve_problem_report(p, 2, SolveLimits{});
        } catch (const InputError&) {
            continue;  // bad input: no outputs
        }
        ++whole_ones;
        SolveReport again;
        again.outputs = whole.outputs;
        again.seconds = whole.seconds;
        render_solve_report(p, again, SolveLimits{});
        const std::string where = GetParam() + " problem at line " + std::to_string(p.where.line);
        EXPECT_EQ(again.text, whole.text) << where;
        EXPECT_EQ(again.status(), whole.status()) << where;
        EXPECT_EQ(again.twin_solutions, whole.twin_solutions) << where;
        EXPECT_EQ(again.solutions, whole.solutions) << where;
        EXPECT_EQ(again.proof_games, whole.proof_games) << where;
        EXPECT_EQ(again.lines, whole.lines) << where;
        EXPECT_EQ(again.keys, whole.keys) << where;
        EXPECT_EQ(again.trees, whole.trees) << where;
        // The first move of the first line or tree sent to its own square.
        SolveReport changed;
        changed.outputs = whole.outputs;
        bool done = false;
        for (TwinOutput& o : changed.outputs) {
            for (PlayLine& l : o.lines)
                for (Move& m : l.moves)
                    if (!done && !m.is_null()) {
                        m.to = m.from;
                        done = true;
                    }
            for (PlayTree& t : o.trees)
                if (!done && !t.root.move.is_null()) {
                    t.root.move.to = t.root.move.from;
                    done = true;
                }
        }
        if (done) {
            EXPECT_THROW(render_solve_report(p, changed, SolveLimits{}), std::invalid_argument) << where;
        }
    }
    if (whole_ones == 0) GTEST_SKIP() << "no problem left whole";
}

// Every root item that splits into replies (plain help play): the reply
// fragments joined equal the item's own fragment, and a budgeted search (all replies, or the
// first only and the rest left pending) covers the same replies.
TEST_P(SolveSplit, RepliesJoinedEqualRootItem) {
    const std::vector<Problem> problems = parse_popeye_file(GetParam());
    int split = 0;
    for (const Problem& p : problems) {
        const SolvePlan plan = plan_solve(p);
        if (!plan.splittable) continue;
        for (const SolveRootItem& item : plan.items) {
            const std::vector<SolveRootItem> replies = solve_replies(p, item);
            if (replies.empty()) continue;
            ++split;
            const SolveFragment whole = solve_fragment(p, item, 2, SolveLimits{});
            std::vector<SolveFragment> shares;
            for (const SolveRootItem& r : replies) {
                EXPECT_TRUE(solve_replies(p, r).empty()) << "a reply splits again";
                shares.push_back(solve_fragment(p, r, 1, SolveLimits{}));
            }
            EXPECT_EQ(join_fragments(shares).lines, whole.lines) << GetParam() << " line " << p.where.line;

            const SolveBudgetResult all = solve_fragment_budget(p, item, 2, SolveLimits{}, 1e6);
            EXPECT_TRUE(all.complete);
            EXPECT_EQ(all.whole.lines, whole.lines);

            // A budget spent at once: the first reply is searched, the rest handed back.
            const SolveBudgetResult cut = solve_fragment_budget(p, item, 1, SolveLimits{}, 1e-9);
            if (replies.size() > 1) {
                ASSERT_FALSE(cut.complete);
                ASSERT_FALSE(cut.done.empty());
                EXPECT_EQ(cut.done.front().first.reply, 0);
                EXPECT_EQ(cut.done.size() + cut.pending.size(), replies.size());
                std::vector<SolveFragment> again(replies.size());
                for (const auto& [r, f] : cut.done) again[size_t(r.reply)] = f;
                for (const SolveRootItem& r : cut.pending)
                    again[size_t(r.reply)] = solve_fragment(p, r, 1, SolveLimits{});
                EXPECT_EQ(join_fragments(again).lines, whole.lines);
            }
            if (split >= 4) return;  // enough per file: each root item searches its whole tree
        }
    }
    if (split == 0) GTEST_SKIP() << "no root item splits into replies";
}

// A test name from a file path: its directory's name and stem, alphanumerics only.
std::string case_name(const testing::TestParamInfo<std::string>& info) {
    const fs::path p(info.param);
    std::string name = p.parent_path().parent_path().filename().string() + "_" + p.stem().string();
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return name + "_" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(Files, SolveSplit, testing::ValuesIn(all_inputs()), case_name);

// The reference problems, data/problems and Popeye's own examples of data/popeye.
std::vector<std::string> unsplit_inputs() {
    std::vector<std::string> out = all_inputs();
    for (const std::string& f : inputs(fs::path(REBIRTH_SOURCE_DIR) / "data" / "popeye")) out.push_back(f);
    return out;
}

INSTANTIATE_TEST_SUITE_P(Files, UnsplitReports, testing::ValuesIn(unsplit_inputs()), case_name);

// MaxSolutions is refused; a plain helpmate splits into its root moves.
TEST(SolveSplitPlan, RefusesMaxSolutionsAndProofGames) {
    const std::vector<Problem> max =
        parse_popeye("begin\nstipulation h#2\noption maxsolutions 1\npieces white ke1 qd1 black ke8\nend\n", "max.inp");
    ASSERT_EQ(max.size(), 1u);
    EXPECT_FALSE(plan_solve(max[0]).splittable);
    const std::vector<Problem> plain =
        parse_popeye("begin\nstipulation h#2\npieces white ke1 qd1 black ke8\nend\n", "plain.inp");
    ASSERT_EQ(plain.size(), 1u);
    const SolvePlan plan = plan_solve(plain[0]);
    EXPECT_TRUE(plan.splittable);
    EXPECT_FALSE(plan.items.empty());
}

// A fragment is data: fragment_text renders it as the item's text and refuses data that does
// not fit the item (as the cluster's master gets it from another process).
TEST(SolveSplitPlan, FragmentTextChecksItsData) {
    const fs::path examples = fs::path(REBIRTH_SOURCE_DIR) / "data" / "examples";
    for (const char* name : {"antimars_lindenthal_h2.inp", "circe_linss_mate2.inp"}) {
        const std::vector<Problem> problems = parse_popeye_file((examples / name).string());
        ASSERT_EQ(problems.size(), 1u);
        const Problem& p = problems[0];
        const SolvePlan plan = plan_solve(p);
        ASSERT_TRUE(plan.splittable) << name;
        int checked = 0;
        for (const SolveRootItem& item : plan.items) {
            const SolveFragment f = solve_fragment(p, item, 1, SolveLimits{});
            const bool has_line = std::any_of(f.lines.begin(), f.lines.end(), [](const auto& l) { return !l.empty(); });
            if (!has_line && f.trees.empty()) continue;
            ++checked;
            const std::vector<std::string> text = fragment_text(p, item, f);
            ASSERT_FALSE(text.empty());
            EXPECT_NE(text.back().find('#'), std::string::npos) << name;  // a mate is shown

            SolveFragment wrong = f;
            if (has_line) {
                for (auto& part : wrong.lines)
                    if (!part.empty()) {
                        Move& last = part[0].moves.back();
                        last.to = last.from;  // not a move
                        break;
                    }
            } else {
                PlayNode& leaf = wrong.trees[0].root.children.back();
                leaf.move.to = leaf.move.from;
            }
            EXPECT_THROW(fragment_text(p, item, wrong), std::invalid_argument) << name;
            SolveRootItem other = item;
            other.phase = 5;  // a play the problem does not have
            EXPECT_THROW(fragment_text(p, other, f), std::invalid_argument) << name;
            SolveFragment longer = f;
            if (has_line)
                longer.lines.emplace_back();  // one length more than the play has
            else
                longer.trees.push_back(f.trees[0]);  // two trees for one root move
            EXPECT_THROW(fragment_text(p, item, longer), std::invalid_argument) << name;
            SolveFragment cut = f;
            cut.timed_out = true;  // a timed-out item found nothing
            EXPECT_THROW(fragment_text(p, item, cut), std::invalid_argument) << name;
            break;
        }
        EXPECT_EQ(checked, 1) << name;
    }
}

}  // namespace
}  // namespace rebirth
