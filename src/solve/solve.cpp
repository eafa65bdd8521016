#include "rebirth/solve.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "rebirth/error.h"
#include "rebirth/goal.h"
#include "rebirth/movegen.h"
#include "rebirth/notation.h"
#include "rebirth/popeye_input.h"
#include "rebirth/popeye_order.h"
#include "rebirth/popeye_output.h"
#include "rebirth/position.h"
#include "rebirth/rules.h"
#include "solve/solve_internal.h"

namespace rebirth {

namespace {

std::string finished_text(Language lang, bool partial) {
    switch (lang) {
        case Language::German:
            return partial ? "Partielle Loesung" : "Loesung beendet.";
        case Language::French:
            return partial ? "Solution partielle" : "solution terminee.";
        default:
            return partial ? "Partial solution" : "solution finished.";
    }
}

// Popeye's words before the solving time on the closing line.
const char* time_word(Language lang) {
    switch (lang) {
        case Language::German:
            return " Zeit = ";
        case Language::French:
            return " Temps = ";
        default:
            return " Time = ";
    }
}

bool is_help_family(const Problem& tw) {
    const Stipulation::Play play = tw.stipulation.play;
    return tw.stipulation.series || play == Stipulation::Play::Help || play == Stipulation::Play::HelpSelf ||
           play == Stipulation::Play::HelpReflex;
}

// Solves one twin (already applied) into `out` (its data, whether a solver handles its
// stipulation, whether MaxSolutions cut it).
void solve_twin(const Problem& tw, int threads, TwinOutput& out, SearchControl* control,
                std::vector<std::string>* notes) {
    const std::unique_ptr<TwinSetup> setup = load_twin(tw);
    bool partial = false;
    const SolveContext ctx{tw,      setup->rules, setup->pos, goal_from_text(tw.stipulation.goal), threads, &partial,
                           control, notes,        &out};
    out.supported = !tw.stipulation.empty() && !tw.stipulation.retro() &&
                    (is_proof(tw)         ? solve_proof_game(ctx)
                     : is_help_family(tw) ? solve_help_or_series(ctx)
                                          : solve_direct(ctx));
    out.partial = partial;
}

// Popeye's solution lines of one twin (already applied) from what it found; a twin that no
// solver handles gets a one-line message instead. Throws std::invalid_argument when `found`
// does not fit the twin (its moves checked when `check`).
std::string twin_text(const Problem& tw, const TwinOutput& found, bool check) {
    const std::unique_ptr<TwinSetup> setup = load_twin(tw);
    SolveContext ctx = twin_context(tw, *setup);
    ctx.check = check;
    std::string text;
    const bool retro = tw.stipulation.retro();
    const bool handled = !tw.stipulation.empty() && !retro &&
                         (is_proof(tw)         ? render_proof_game(ctx, found, text)
                          : is_help_family(tw) ? render_help_or_series(ctx, found, text)
                                               : render_direct(ctx, found, text));
    if (handled != found.supported)
        throw std::invalid_argument("a twin said to be solved by no solver, or the reverse");
    if (handled) return text;
    if (!found.lines.empty() || !found.trees.empty() || found.partial || found.last_cut)
        throw std::invalid_argument("solutions of a twin that no solver handles");
    return "\nrebirth: " + tw.where.file + ":" + std::to_string(tw.where.line) + ": stipulation " +
           (tw.stipulation.text.empty() ? std::string("(none)") : tw.stipulation.text) +
           (retro ? " is a retro stipulation, which `rebirth solve` and the cluster's retro jobs analyze, not "
                    "this solver: the problem was not solved\n"
                  : " is not supported yet: the problem was not solved\n");
}

// Popeye's message for a search stopped by the time limit.
std::string timeout_text(double max_seconds) {
    std::ostringstream msg;
    msg << "\nrebirth: time limit of " << max_seconds << " s reached: the search was stopped\n";
    return msg.str();
}

// Sets the report's totals and text from the twins' text `out`: the closing line (with the
// time when asked) after a supported problem.
void finish_report(SolveReport& report, const std::string& out, bool partial, const Problem& p,
                   const SolveLimits& limits) {
    report.partial = partial;
    for (int n : report.twin_solutions) report.solutions += n;
    std::string closing = finished_text(p.language, partial);
    if (limits.show_time) {
        std::ostringstream t;
        t.setf(std::ios::fixed);
        t.precision(3);
        t << time_word(p.language) << report.seconds << " s";
        closing += t.str();
    }
    report.text = report.supported ? out + "\n" + closing + "\n\n\n" : out + "\n";
}

}  // namespace

bool is_proof(const Problem& tw) {
    return tw.stipulation.play == Stipulation::Play::ProofGame || tw.stipulation.play == Stipulation::Play::AToB;
}

std::unique_ptr<TwinSetup> load_twin(const Problem& tw) {
    const int line = tw.condition_line ? tw.condition_line : tw.where.line;
    auto setup = std::make_unique<TwinSetup>(TwinSetup{resolve_rules(tw.conditions, tw.where.file, line), {}});
    add_castling_exclusive(setup->rules, tw.options.castling_exclusive);
    SetupRules setup_rules;
    setup_rules.require_white_king = !tw.options.no_white_king;
    setup_rules.require_black_king = !tw.options.no_black_king;
    setup_rules.rules = &setup->rules;
    // Proof games play from the game array or position a; their diagram is only the target.
    try {
        setup->pos.set(is_proof(tw) ? proof_start_setup(tw) : tw.setup, setup_rules, tw.where.file);
    } catch (const InputError& e) {
        throw InputError(tw.where.file, tw.where.line, e.word(), e.reason());
    }
    return setup;
}

Position play_start(const TwinSetup& setup, Color first, const Problem& tw) {
    Setup s = setup.pos.to_setup();
    s.side_to_move = first;
    SetupRules setup_rules;
    setup_rules.require_white_king = !tw.options.no_white_king;
    setup_rules.require_black_king = !tw.options.no_black_king;
    setup_rules.rules = setup.rules.orthodox() ? nullptr : &setup.rules;
    Position pos;
    pos.load(s, setup_rules, tw.where.file);
    return pos;
}

std::vector<std::pair<Problem, std::string>> twins_of(const Problem& p) {
    std::vector<std::pair<Problem, std::string>> out;
    if (p.twins.empty()) {
        out.push_back({p, ""});
        return out;
    }
    // With ZeroPosition the diagram itself is not solved: twin a) is the first Twin.
    const bool zero = p.twins.front().zero_position;
    const size_t count = zero ? p.twins.size() : p.twins.size() + 1;
    for (size_t i = 0; i < count; ++i) out.push_back({apply_twin(p, zero ? i + 1 : i), format_twin_line(p, i)});
    return out;
}

// Number of solutions in a twin's text: keys of battle play ("   1.Sb2-c4 !", not the
// refutations of tries, which are indented further), solution lines of help, series and
// proof play ("  1.").
int count_solutions(const std::string& text) {
    int n = 0;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string_view line(text.data() + start, end - start);
        // "   1.Sa8-b6 !", possibly followed by " threat:" or " zugzwang."
        const bool key = line.size() > 5 && line.substr(0, 3) == "   " && line[3] >= '1' && line[3] <= '9' &&
                         line.find(" !") != std::string_view::npos;
        const bool play_line = line.rfind("  1.", 0) == 0;
        if (key || play_line) ++n;
        start = end + 1;
    }
    return n;
}

SolveReport solve_problem_report(const Problem& p, int threads, const SolveLimits& limits,
                                 std::atomic<std::uint64_t>* nodes, std::atomic<int>* root_done,
                                 std::atomic<int>* root_total) {
    SolveReport report;
    std::atomic<std::uint64_t> local_nodes{0};
    SearchControl control;
    control.nodes = nodes ? nodes : &local_nodes;
    control.root_done = root_done;
    control.root_total = root_total;
    const std::uint64_t nodes_before = control.nodes->load();
    const auto start = std::chrono::steady_clock::now();
    control.set_time_limit(start, limits.max_seconds);
    try {
        for (const auto& tw : twins_of(p)) {
            report.outputs.emplace_back();
            solve_twin(tw.first, threads, report.outputs.back(), &control, &report.notes);
        }
    } catch (const SearchStopped&) {
        // The twin being searched when time ran out shows nothing.
        report.outputs.back() = TwinOutput{};
        report.outputs.back().timed_out = true;
    }
    report.nodes = control.nodes->load() - nodes_before;
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    render_solve_report(p, report, limits, false);  // the solvers' own data: not checked again
    return report;
}

void render_solve_report(const Problem& p, SolveReport& report, const SolveLimits& limits, bool check) {
    const auto twins = twins_of(p);
    if (report.outputs.size() > twins.size()) throw std::invalid_argument("outputs of more twins than the problem has");
    report.supported = true;
    report.timed_out = false;
    report.solutions = 0;
    report.twin_solutions.clear();
    report.proof_games.clear();
    report.lines.clear();
    report.keys.clear();
    report.trees.clear();
    std::string out;
    bool partial = false;
    for (size_t t = 0; t < report.outputs.size(); ++t) {
        const TwinOutput& found = report.outputs[t];
        const Problem& tw = twins[t].first;
        const size_t before = out.size();
        if (!p.twins.empty()) out += format_twin_intro(p, tw, t);
        if (found.timed_out) {
            TwinOutput stopped;
            stopped.timed_out = true;
            if (t + 1 != report.outputs.size() || found != stopped)
                throw std::invalid_argument("a timed-out twin with solutions, or twins after it");
            report.timed_out = true;
            out += timeout_text(limits.max_seconds);
            partial = true;
            break;
        }
        out += twin_text(tw, found, check);
        if (!found.supported) report.supported = false;
        partial = partial || found.partial;
        report.twin_solutions.push_back(count_solutions(out.substr(before)));
        const int twin = static_cast<int>(t);
        for (PlayLine l : found.lines) {
            l.twin = twin;
            (is_proof(tw) ? report.proof_games : report.lines).push_back(std::move(l));
        }
        for (PlayTree tree : found.trees) {
            if (tree.root.kind != PlayNode::Kind::Key && tree.root.kind != PlayNode::Kind::Try) continue;
            tree.twin = twin;
            if (tree.root.kind == PlayNode::Kind::Key)
                report.keys.push_back({twin, tree.play, tree.first, {tree.root.move}});
            report.trees.push_back(std::move(tree));
        }
    }
    if (!report.timed_out && report.outputs.size() != twins.size())
        throw std::invalid_argument("outputs of fewer twins than the problem has");
    finish_report(report, out, partial, p, limits);
}

SolvePlan plan_solve(const Problem& p) {
    SolvePlan plan;
    auto refuse = [&](std::string why) {
        SolvePlan no;
        no.reason = std::move(why);
        return no;
    };
    try {
        const auto twins = twins_of(p);
        for (size_t t = 0; t < twins.size(); ++t) {
            const Problem& tw = twins[t].first;
            if (tw.stipulation.empty()) return refuse("no stipulation");
            if (is_proof(tw)) return refuse("proof game");
            if (tw.stipulation.retro()) return refuse("retro stipulation");
            const std::unique_ptr<TwinSetup> setup = load_twin(tw);
            const SolveContext ctx = twin_context(tw, *setup);
            std::vector<SplitPhase> phases;
            if (!(is_help_family(tw) ? split_help(ctx, phases) : split_direct(ctx, phases)))
                return refuse("stipulation or options not splittable by root moves");
            SolvePlan::Twin twin;
            twin.line = twins[t].second;
            for (size_t k = 0; k < phases.size(); ++k) {
                SolvePlan::Phase ph;
                ph.blocked = phases[k].blocked;
                ph.lengths = phases[k].lengths;
                ph.first_item = static_cast<int>(plan.items.size());
                ph.roots = static_cast<int>(phases[k].moves.size());
                for (size_t r = 0; r < phases[k].moves.size(); ++r) {
                    const Move& m = phases[k].moves[r];
                    const int occurrence =
                        static_cast<int>(std::count(phases[k].moves.begin(), phases[k].moves.begin() + r, m));
                    SolveRootItem item;
                    item.twin = int(t);
                    item.phase = int(k);
                    item.root = int(r);
                    item.move = m;
                    item.occurrence = occurrence;
                    plan.items.push_back(item);
                }
                twin.phases.push_back(ph);
            }
            plan.twins.push_back(std::move(twin));
        }
    } catch (const InputError& e) {
        return refuse(std::string("not playable: ") + e.what());
    }
    plan.splittable = true;
    return plan;
}

namespace {

// The twin (as twins_of applies it) that item `item` of plan_solve(p) belongs to.
Problem item_twin(const Problem& p, const SolveRootItem& item) {
    auto twins = twins_of(p);
    if (item.twin < 0 || item.twin >= int(twins.size())) throw std::logic_error("no such twin");
    return std::move(twins[size_t(item.twin)].first);
}

// The shares of root item `item` of help play in twin context `ctx` (solve_replies).
std::vector<SolveRootItem> reply_items(const SolveContext& ctx, const SolveRootItem& item) {
    std::vector<SolveRootItem> out;
    const std::vector<Move> replies = help_reply_moves(ctx, item.phase, item.root);
    for (size_t r = 0; r < replies.size(); ++r) {
        SolveRootItem share = item;
        share.reply = int(r);
        share.reply_move = replies[r];
        share.reply_occurrence = int(std::count(replies.begin(), replies.begin() + long(r), replies[r]));
        out.push_back(share);
    }
    return out;
}

// solve_fragment in twin `tw` of the item's problem.
SolveFragment twin_fragment(const Problem& tw, const SolveRootItem& item, int threads, const SolveLimits& limits) {
    SolveFragment fragment;
    TwinRun run(tw, threads, limits);
    try {
        if (item.reply >= 0)
            fragment.lines = help_reply_lines(run.ctx, item.phase, item.root, item.reply);
        else if (is_help_family(tw))
            fragment.lines = help_root_lines(run.ctx, item.phase, item.root);
        else
            fragment.trees = direct_root_trees(run.ctx, item.phase, item.root);
        for (std::vector<PlayLine>& part : fragment.lines)
            for (PlayLine& l : part) l.twin = item.twin;
        for (PlayTree& t : fragment.trees) t.twin = item.twin;
    } catch (const SearchStopped&) {
        fragment.lines.clear();
        fragment.trees.clear();
        fragment.timed_out = true;
    }
    fragment.nodes = run.nodes.load();
    fragment.seconds = run.seconds();
    return fragment;
}

// Renders fragments of one twin (fragment_text): the twin loaded and its plays split once for
// all its items.
class TwinRender {
  public:
    explicit TwinRender(Problem tw) : tw_(std::move(tw)), setup_(load_twin(tw_)), ctx_(twin_context(tw_, *setup_)) {
        help_ = is_help_family(tw_);
        if (!(help_ ? split_help(ctx_, phases_) : split_direct(ctx_, phases_)))
            throw std::invalid_argument("a twin that does not split by root moves");
    }

    std::vector<std::string> text(const SolveRootItem& item, const SolveFragment& f) const {
        if (f.timed_out) {
            if (!f.lines.empty() || !f.trees.empty())
                throw std::invalid_argument("a timed-out fragment with solutions");
            return {};
        }
        if (item.phase < 0 || size_t(item.phase) >= phases_.size() || phases_[size_t(item.phase)].blocked)
            throw std::invalid_argument("a play the twin does not have");
        if (help_) {
            if (!f.trees.empty()) throw std::invalid_argument("a tree in help play");
            if (f.lines.size() != size_t(phases_[size_t(item.phase)].lengths))
                throw std::invalid_argument("lines of " + std::to_string(f.lines.size()) + " lengths, the play has " +
                                            std::to_string(phases_[size_t(item.phase)].lengths));
            std::vector<std::string> parts;
            for (const std::vector<PlayLine>& lines : f.lines) {
                for (const PlayLine& l : lines)
                    if (l.twin != item.twin) throw std::invalid_argument("a line of another twin");
                parts.push_back(help_lines_text(ctx_, item.phase, lines));
            }
            return parts;
        }
        if (!f.lines.empty() || f.trees.size() > 1)
            throw std::invalid_argument("lines or several trees in battle play");
        std::string block;
        for (const PlayTree& t : f.trees) {
            if (t.twin != item.twin || t.root.move != item.move)
                throw std::invalid_argument("a tree of another twin or root move");
            block = direct_tree_text(ctx_, item.phase, t);
        }
        return {block};
    }

  private:
    Problem tw_;
    std::unique_ptr<TwinSetup> setup_;
    SolveContext ctx_;
    bool help_ = false;
    std::vector<SplitPhase> phases_;
};

}  // namespace

SolveFragment solve_fragment(const Problem& p, const SolveRootItem& item, int threads, const SolveLimits& limits) {
    return twin_fragment(item_twin(p, item), item, threads, limits);
}

std::vector<SolveRootItem> solve_replies(const Problem& p, const SolveRootItem& item) {
    if (item.reply >= 0) return {};
    const Problem tw = item_twin(p, item);
    if (!is_help_family(tw)) return {};
    const std::unique_ptr<TwinSetup> setup = load_twin(tw);
    const SolveContext ctx = twin_context(tw, *setup);
    return reply_items(ctx, item);
}

SolveFragment join_fragments(const std::vector<SolveFragment>& replies) {
    SolveFragment whole;
    for (const SolveFragment& f : replies) {
        whole.nodes += f.nodes;
        whole.seconds += f.seconds;
        whole.timed_out = whole.timed_out || f.timed_out;
        if (f.timed_out) continue;
        if (!f.trees.empty()) throw std::logic_error("reply fragments of battle play");
        if (whole.lines.empty()) whole.lines.resize(f.lines.size());
        if (f.lines.size() != whole.lines.size()) throw std::logic_error("reply fragments of different plays");
        for (size_t len = 0; len < f.lines.size(); ++len)
            whole.lines[len].insert(whole.lines[len].end(), f.lines[len].begin(), f.lines[len].end());
    }
    if (whole.timed_out) whole.lines.clear();
    return whole;
}

SolveBudgetResult solve_fragment_budget(const Problem& p, const SolveRootItem& item, int threads,
                                        const SolveLimits& limits, double budget_seconds) {
    SolveBudgetResult result;
    const Problem tw = item_twin(p, item);
    if (budget_seconds <= 0 || item.reply >= 0 || !is_help_family(tw)) {
        result.whole = twin_fragment(tw, item, threads, limits);
        return result;
    }
    TwinRun run(tw, threads, limits);
    const std::vector<SolveRootItem> replies = reply_items(run.ctx, item);
    if (replies.empty()) {
        result.whole = twin_fragment(tw, item, threads, limits);
        return result;
    }
    std::vector<std::optional<LineParts>> parts;
    try {
        parts = help_replies_lines(run.ctx, item.phase, item.root, time_after(run.start, budget_seconds));
    } catch (const SearchStopped&) {
        result.whole.timed_out = true;
    }
    const double seconds = run.seconds();
    if (result.whole.timed_out || parts.size() != replies.size()) {
        result.whole.timed_out = true;
        result.whole.nodes = run.nodes.load();
        result.whole.seconds = seconds;
        return result;
    }
    // The search's nodes and time go with the first reply (searched always).
    std::vector<SolveFragment> all;
    for (size_t r = 0; r < replies.size(); ++r) {
        if (!parts[r]) {
            result.pending.push_back(replies[r]);
            continue;
        }
        SolveFragment f;
        f.lines = std::move(*parts[r]);
        for (std::vector<PlayLine>& part : f.lines)
            for (PlayLine& l : part) l.twin = item.twin;
        if (r == 0) {
            f.nodes = run.nodes.load();
            f.seconds = seconds;
        }
        result.done.push_back({replies[r], f});
        all.push_back(std::move(f));
    }
    result.complete = result.pending.empty();
    if (result.complete) {
        result.whole = join_fragments(all);
        result.done.clear();
    }
    return result;
}

SolveReport assemble_solve(const Problem& p, const SolvePlan& plan, const std::vector<SolveFragment>& fragments,
                           const SolveLimits& limits) {
    if (!plan.splittable || fragments.size() != plan.items.size())
        throw std::logic_error("fragments do not fit the plan");
    std::vector<std::vector<std::string>> texts;
    std::vector<std::unique_ptr<TwinRender>> renders(plan.twins.size());
    for (size_t i = 0; i < fragments.size(); ++i) {
        const SolveRootItem& item = plan.items[i];
        if (item.twin < 0 || size_t(item.twin) >= renders.size())
            throw std::logic_error("fragments do not fit the plan");
        std::unique_ptr<TwinRender>& render = renders[size_t(item.twin)];
        if (!render) render = std::make_unique<TwinRender>(item_twin(p, item));
        try {
            texts.push_back(render->text(item, fragments[i]));
        } catch (const std::invalid_argument& e) {
            throw std::logic_error(std::string("a fragment does not fit its item: ") + e.what());
        }
    }
    return assemble_twins(p, plan.twins, fragments, texts, limits);
}

std::vector<std::string> fragment_text(const Problem& p, const SolveRootItem& item, const SolveFragment& fragment) {
    const auto twins = twins_of(p);
    if (item.twin < 0 || item.twin >= int(twins.size())) throw std::invalid_argument("no such twin");
    return TwinRender(twins[size_t(item.twin)].first).text(item, fragment);
}

void check_line(const Position& start, const std::vector<Move>& moves) {
    Position pos = start;
    for (const Move& m : moves) {
        if (m.is_null()) {
            pos.set_side_to_move_for_analysis(~pos.side_to_move());
            continue;
        }
        if (!is_legal(pos, m)) throw std::invalid_argument("a move that is not legal where it is played");
        UndoInfo u;
        pos.do_move(m, u);
    }
}

namespace {

// check_tree of the nodes of `todo`, each with the position it is played in; `root` (when
// given) must be a key or a try.
void check_nodes(std::vector<std::pair<const PlayNode*, Position>> todo, const PlayNode* root) {
    while (!todo.empty()) {
        auto [n, before] = std::move(todo.back());
        todo.pop_back();
        if (n->kind > PlayNode::Kind::Obliged || n->then > PlayNode::Then::Zugzwang)
            throw std::invalid_argument("a tree node of no kind");
        if (n == root && n->kind != PlayNode::Kind::Key && n->kind != PlayNode::Kind::Try)
            throw std::invalid_argument("a tree whose root is neither a key nor a try");
        if (!is_legal(before, n->move)) throw std::invalid_argument("a move that is not legal where it is played");
        UndoInfo u;
        before.do_move(n->move, u);
        for (const PlayNode& c : n->children) {
            Position at = before;
            if (c.kind == PlayNode::Kind::Threat) at.set_side_to_move_for_analysis(~at.side_to_move());
            todo.push_back({&c, std::move(at)});
        }
    }
}

}  // namespace

void check_tree(const Position& pos, const PlayNode& node) { check_nodes({{&node, pos}}, &node); }

void check_tree_below(const Position& pos, const PlayNode& root) {
    std::vector<std::pair<const PlayNode*, Position>> todo;
    for (const PlayNode& c : root.children) {
        Position at = pos;
        if (c.kind == PlayNode::Kind::Threat) at.set_side_to_move_for_analysis(~at.side_to_move());
        todo.push_back({&c, std::move(at)});
    }
    if (!todo.empty()) check_nodes(std::move(todo), nullptr);
}

SolveReport assemble_twins(const Problem& p, const std::vector<SolvePlan::Twin>& twins,
                           const std::vector<SolveFragment>& fragments,
                           const std::vector<std::vector<std::string>>& texts, const SolveLimits& limits) {
    if (texts.size() != fragments.size()) throw std::logic_error("fragments and texts do not fit");
    SolveReport report;
    for (const SolveFragment& f : fragments) {
        report.nodes += f.nodes;
        report.seconds += f.seconds;
    }
    std::string out;
    bool partial = false;
    const auto problems = twins_of(p);  // each twin's notes come before and after its line
    for (size_t t = 0; t < twins.size(); ++t) {
        const SolvePlan::Twin& twin = twins[t];
        const size_t before = out.size();
        if (!p.twins.empty()) {
            if (t >= problems.size() || twin.line != problems[t].second)
                throw std::logic_error("a twin of the plan that the problem does not have");
            out += format_twin_intro(p, problems[t].first, t);
        }
        std::string text;
        bool timed_out = false;
        for (size_t i = 0; i < twin.phases.size(); ++i) {
            const SolvePlan::Phase& ph = twin.phases[i];
            if (ph.first_item < 0 || ph.roots < 0 || size_t(ph.first_item) + size_t(ph.roots) > fragments.size())
                throw std::logic_error("fragments do not fit the plan");
            bool limited = false;  // MaxSolutions stopped the phase
            for (int r = 0; r < ph.roots; ++r) {
                timed_out = timed_out || fragments[size_t(ph.first_item + r)].timed_out;
                limited = limited || fragments[size_t(ph.first_item + r)].stopped;
            }
            partial = partial || limited;
            if (ph.blocked) continue;  // as render_direct and render_help: not played
            for (int len = 0; len < ph.lengths; ++len)
                for (int r = 0; r < ph.roots; ++r) {
                    const size_t at = size_t(ph.first_item + r);
                    if (!fragments[at].timed_out) {
                        if (texts[at].size() != size_t(ph.lengths)) throw std::logic_error("fragment of another play");
                        text += texts[at][size_t(len)];
                    }
                }
            // As solve_proof_game: a stopped last play ends without its blank line.
            if (!limited || i + 1 != twin.phases.size()) text += "\n";
        }
        // As one process: the twin being searched when time ran out writes nothing.
        if (timed_out) {
            report.timed_out = true;
            out += timeout_text(limits.max_seconds);
            partial = true;
            break;
        }
        out += text;
        report.twin_solutions.push_back(count_solutions(out.substr(before)));
    }
    finish_report(report, out, partial, p, limits);
    return report;
}

std::string SolveReport::status() const {
    if (!supported) return "unsupported";
    if (timed_out) return "timeout";
    if (partial) return "partial";
    bool cooked = false;
    for (int n : twin_solutions) {
        if (n == 0) return "no-solution";
        cooked = cooked || n > 1;
    }
    return cooked ? "cooked" : "solved";
}

std::vector<GoalMove> goal_moves(const Position& pos, Goal g, Language lang) {
    std::vector<GoalMove> out;
    MoveList list;
    popeye_ordered_moves(pos, list);
    Position scratch = pos;
    for (const Move& m : list) {
        const std::string text = move_to_popeye(scratch, m, false, lang);
        UndoInfo u;
        scratch.do_move(m, u);
        if (goal_reached(scratch, u, g)) out.push_back({m, text, scratch.in_check()});
        scratch.undo_move(m, u);
    }
    return out;
}

bool final_move_order(const Position& pos, Goal g) {
    return (g == Goal::Mate || g == Goal::Check) && popeye_final_move_generator(pos);
}

std::string solve_problem(const Problem& p, int threads, bool* all_supported) {
    SolveReport report = solve_problem_report(p, threads, SolveLimits{});
    if (all_supported) *all_supported = report.supported;
    return report.text;
}

}  // namespace rebirth
