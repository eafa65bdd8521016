#include "rebirth/proof_split.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

#include "proofgame/proof_search.h"
#include "rebirth/error.h"
#include "solve/solve_internal.h"

namespace rebirth {

std::vector<int> ProofPlayPlan::item_lengths(bool start) const {
    std::vector<int> out;
    for (int len : lengths)
        if ((len <= depth) == start) out.push_back(len);
    return out;
}

namespace {

// Twin `twin` of p as twins_of applies it; throws std::invalid_argument when there is none.
Problem twin_of(const Problem& p, int twin) {
    auto twins = twins_of(p);
    if (twin < 0 || twin >= static_cast<int>(twins.size())) throw std::invalid_argument("no such twin");
    return std::move(twins[size_t(twin)].first);
}

// The index of `length` in `lengths`; throws std::logic_error when it is not there.
size_t index_of(const std::vector<int>& lengths, int length) {
    const auto it = std::find(lengths.begin(), lengths.end(), length);
    if (it == lengths.end()) throw std::logic_error("a length the item does not search");
    return size_t(it - lengths.begin());
}

// Sets plan.depth, plan.nodes and plan.order of play `play` (plan.lengths set): the depth
// whose frontier size is nearest options.target_nodes, as ProofSplitOptions says, or `fixed`
// when > 0; the play's longest length (no frontier, the start item searches all) when no
// depth below it qualifies.
void choose_depth(const ProofTwinSearch& search, int play, const ProofSplitOptions& options, int fixed,
                  ProofPlayPlan& plan) {
    const int longest = plan.lengths.back();
    if (fixed > 0) {
        plan.depth = fixed;
        if (fixed < longest) search.frontier(play, fixed, static_cast<size_t>(-1), plan.nodes, plan.order);
        return;
    }
    plan.depth = longest;  // the start item alone, unless a frontier is taken below
    // How far a frontier of n nodes is from the target (ratio either way).
    const double target = std::max(1, options.target_nodes);
    auto off = [&](size_t n) { return n == 0 ? 1e300 : std::max(double(n) / target, target / double(n)); };
    for (int d = 1; d < longest && d <= options.max_depth; ++d) {
        std::vector<ProofFrontierNode> nodes;
        std::vector<std::pair<int, int>> order;
        if (!search.frontier(play, d, options.max_prefixes, nodes, order)) break;
        if (plan.depth == longest || off(nodes.size()) < off(plan.nodes.size())) {
            plan.depth = d;
            plan.nodes = std::move(nodes);
            plan.order = std::move(order);
        }
        if (static_cast<int>(plan.nodes.size()) >= options.target_nodes || plan.depth != d) break;
    }
}

// The lines MaxSolutions lets each play of twin `tw` write, as solve_proof_game counts
// them (0: no limit).
int max_lines_of(const Problem& tw) { return tw.options.max_solutions ? std::max(*tw.options.max_solutions, 1) : 0; }

}  // namespace

ProofGamePlan plan_proof_games(const Problem& p, const ProofSplitOptions& options) {
    ProofGamePlan plan;
    auto refuse = [](std::string why) {
        ProofGamePlan no;
        no.reason = std::move(why);
        return no;
    };
    try {
        const auto twins = twins_of(p);
        for (size_t t = 0; t < twins.size(); ++t) {
            const Problem& tw = twins[t].first;
            if (tw.stipulation.empty() || !is_proof(tw)) return refuse("a twin is no proof game");
            TwinRun run(tw, 1, SolveLimits{});
            if (!ProofTwinSearch::handles(run.ctx)) return refuse("a proof game the solver does not handle");
            // Each length's lines would have to be known before the next is searched.
            if (tw.stipulation.series && tw.options.stop_on_short_solutions)
                return refuse("StopOnShortSolutions in a series proof game");
            const ProofTwinSearch search(run.ctx);
            ProofTwinPlan twin;
            twin.line = twins[t].second;
            for (size_t r = 0; r < search.plays().size(); ++r) {
                const ProofTwinSearch::Play& play = search.plays()[r];
                ProofPlayPlan pp;
                pp.blocked = play.blocked;
                pp.lengths = play.lengths;
                pp.max_lines = max_lines_of(tw);
                if (!pp.blocked) {
                    const auto fixed = options.depths.find({int(t), int(r)});
                    if (fixed != options.depths.end() && fixed->second < 1)
                        return refuse("frontier depth " + std::to_string(fixed->second) + " below 1");
                    choose_depth(search, int(r), options, fixed == options.depths.end() ? 0 : fixed->second, pp);
                }
                twin.plays.push_back(std::move(pp));
            }
            plan.twins.push_back(std::move(twin));
        }
    } catch (const InputError& e) {
        return refuse(std::string("not playable: ") + e.what());
    }
    plan.splittable = true;
    return plan;
}

struct ProofTwinSolver::Impl {
    explicit Impl(Problem p)
        : tw(std::move(p)),
          setup(load_twin(tw)),
          ctx{tw, setup->rules, setup->pos, goal_from_text(tw.stipulation.goal), 1, nullptr, nullptr},
          search(checked(ctx)) {
        for (const ProofTwinSearch::Play& play : search.plays())
            failures.push_back(play.lengths.empty() ? nullptr : std::make_unique<ProofFailures>(play.lengths.back()));
    }
    // ctx, when the solver handles its stipulation.
    static const SolveContext& checked(const SolveContext& ctx) {
        if (!is_proof(ctx.problem) || !ProofTwinSearch::handles(ctx))
            throw std::invalid_argument("the twin is no proof game the solver handles");
        return ctx;
    }
    // Play `play` (checked).
    const ProofTwinSearch::Play& play(int index) const {
        if (index < 0 || index >= static_cast<int>(search.plays().size())) throw std::invalid_argument("no such play");
        return search.plays()[size_t(index)];
    }
    const Problem tw;  // the members below point at it
    const std::unique_ptr<TwinSetup> setup;
    const SolveContext ctx;
    const ProofTwinSearch search;
    std::vector<std::unique_ptr<ProofFailures>> failures;  // per play: shared by its searches
};

ProofTwinSolver::ProofTwinSolver(const Problem& p, int twin) : impl_(std::make_unique<Impl>(twin_of(p, twin))) {}

ProofTwinSolver::~ProofTwinSolver() = default;

int ProofTwinSolver::plays() const { return static_cast<int>(impl_->search.plays().size()); }

Color ProofTwinSolver::first(int play) const { return impl_->play(play).first; }

ProofSuffixes ProofTwinSolver::suffixes(int play, const MoveLine& prefix, const std::vector<int>& lengths, int threads,
                                        const SolveLimits& limits) const {
    const Impl& m = *impl_;
    const std::vector<int>& searched = m.play(play).lengths;
    for (int len : lengths)
        if (std::find(searched.begin(), searched.end(), len) == searched.end())
            throw std::invalid_argument("length " + std::to_string(len) + " is not searched in this play");
    // This call's own node counter, time limit and thread count.
    const auto start = std::chrono::steady_clock::now();
    std::atomic<std::uint64_t> nodes{0};
    SearchControl control;
    control.nodes = &nodes;
    control.set_time_limit(start, limits.max_seconds);
    bool partial = false;
    const SolveContext call{m.tw, m.setup->rules, m.setup->pos, m.ctx.goal, threads, &partial, &control};
    ProofSuffixes out;
    // MaxSolutions: the lines still wanted, counted down across the lengths (0: no limit).
    long limit_left = max_lines_of(m.tw);
    bool stopped = false;
    try {
        for (int len : lengths) {
            std::vector<MoveLine> lines;
            if (!stopped)
                m.search.solve(play, prefix, len, limit_left, stopped, nullptr, &lines, &call,
                               m.failures[size_t(play)].get());
            out.lines.push_back(std::move(lines));
        }
    } catch (const SearchStopped&) {
        out.lines.clear();
        out.timed_out = true;
    }
    out.nodes = nodes.load();
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
}

std::string ProofTwinSolver::line(int play, const MoveLine& prefix, const MoveLine& suffix) const {
    impl_->play(play);
    MoveLine all = prefix;
    all.insert(all.end(), suffix.begin(), suffix.end());
    return impl_->search.line_text(play, all);
}

MoveLine ProofTwinSolver::game(int play, const MoveLine& prefix, const MoveLine& suffix) const {
    MoveLine all = prefix;
    all.insert(all.end(), suffix.begin(), suffix.end());
    return impl_->search.game(play, all);
}

bool ProofTwinSolver::keeps_line(int play, const MoveLine& line) const {
    impl_->play(play);
    return impl_->search.keeps_line(play, line);
}

ProofSuffixes solve_proof_suffixes(const Problem& p, int twin, int play, const MoveLine& prefix,
                                   const std::vector<int>& lengths, int threads, const SolveLimits& limits) {
    return ProofTwinSolver(p, twin).suffixes(play, prefix, lengths, threads, limits);
}

ProofItemTally tally_of(const ProofSuffixes& s) {
    ProofItemTally t;
    t.timed_out = s.timed_out;
    for (const std::vector<MoveLine>& lines : s.lines) t.lines.push_back(lines.size());
    return t;
}

std::optional<std::size_t> proof_play_items_needed(const ProofPlayPlan& play,
                                                   const std::vector<std::optional<ProofItemTally>>& items) {
    const size_t all = play.blocked ? 0 : 1 + play.nodes.size();
    if (items.size() != all) throw std::logic_error("results do not fit the plan");
    if (play.blocked) return 0;
    const size_t start_lengths = play.item_lengths(true).size(), node_lengths = play.item_lengths(false).size();
    // Item i's tally when it is in (checked against the plan), else null.
    auto in = [&](size_t i) -> const ProofItemTally* {
        const std::optional<ProofItemTally>& t = items[i];
        if (!t) return nullptr;
        if (t->timed_out ? !t->lines.empty() : t->lines.size() != (i == 0 ? start_lengths : node_lengths))
            throw std::logic_error("an item's lengths do not fit the plan");
        return &*t;
    };
    if (play.max_lines <= 0) {
        for (size_t i = 0; i < all; ++i)
            if (!in(i)) return std::nullopt;
        return all;
    }
    // The play's lines in the order solve_proof_game writes them, counted up to max_lines:
    // the start item's lengths, then per longer length every prefix in generation order.
    const size_t wanted = size_t(play.max_lines);
    const ProofItemTally* start = in(0);
    if (!start) return std::nullopt;
    if (start->timed_out) return 1;
    size_t count = 0;
    for (size_t n : start->lines) count += n;
    if (count >= wanted) return 1;
    size_t reached = 0;  // nodes reached so far: the first ones in plan order
    for (size_t at = 0; at < node_lengths; ++at)
        for (const auto& [node, k] : play.order) {
            if (node < 0 || size_t(node) >= play.nodes.size()) throw std::logic_error("a plan's order of other nodes");
            for (; reached <= size_t(node); ++reached) {
                const ProofItemTally* t = in(1 + reached);
                if (!t) return std::nullopt;
                if (t->timed_out) return 2 + reached;
            }
            count += items[1 + size_t(node)]->lines[at];
            if (count >= wanted) return 1 + reached;
        }
    // Fewer lines than max_lines: every item counts (each node has a prefix in the order).
    for (; reached < play.nodes.size(); ++reached)
        if (!in(1 + reached)) return std::nullopt;
    return all;
}

SolveReport assemble_proof_games(const Problem& p, const ProofGamePlan& plan,
                                 const std::vector<std::vector<ProofPlayResults>>& results, const SolveLimits& limits) {
    if (!plan.splittable || results.size() != plan.twins.size()) throw std::logic_error("results do not fit the plan");
    // One fragment per play, its text the play's per length: assemble_twins then writes the
    // twins as solve_problem_report does.
    std::vector<SolvePlan::Twin> twins;
    std::vector<SolveFragment> fragments;
    std::vector<std::vector<std::string>> texts;
    std::vector<PlayLine> games;  // the twins' before the first timed-out one, as the text
    bool cut = false;
    for (size_t t = 0; t < plan.twins.size(); ++t) {
        const ProofTwinPlan& twin = plan.twins[t];
        if (results[t].size() != twin.plays.size()) throw std::logic_error("results do not fit the plan");
        SolvePlan::Twin out;
        out.line = twin.line;
        std::vector<PlayLine> twin_games;
        bool twin_timed_out = false;
        for (size_t r = 0; r < twin.plays.size(); ++r) {
            const ProofPlayPlan& play = twin.plays[r];
            const ProofPlayResults& res = results[t][r];
            SolvePlan::Phase phase;
            // A play no game can have (render_proof_game) is written as one without games, an
            // empty line, not left out as a Duplex half that cannot start (assemble_twins).
            phase.blocked = false;
            phase.lengths = std::max<int>(1, static_cast<int>(play.lengths.size()));
            phase.first_item = static_cast<int>(fragments.size());
            phase.roots = 1;
            SolveFragment f;
            std::vector<std::string> parts;
            if (!play.blocked) {
                if (res.nodes.size() != play.nodes.size()) throw std::logic_error("results do not fit the plan");
                // The items that make the text: all, or with MaxSolutions those up to its last line.
                std::vector<std::optional<ProofItemTally>> tallies{tally_of(res.start)};
                for (const ProofSuffixes& s : res.nodes) tallies.push_back(tally_of(s));
                const size_t needed = proof_play_items_needed(play, tallies).value();
                for (size_t i = 0; i < needed; ++i) {
                    const ProofSuffixes& s = i == 0 ? res.start : res.nodes[i - 1];
                    f.nodes += s.nodes;
                    f.seconds += s.seconds;
                    f.timed_out = f.timed_out || s.timed_out;
                }
                twin_timed_out = twin_timed_out || f.timed_out;
                if (!f.timed_out) {
                    const ProofTwinSolver writer(p, static_cast<int>(t));
                    const std::vector<int> start_lengths = play.item_lengths(true);
                    const std::vector<int> node_lengths = play.item_lengths(false);
                    const size_t limit = play.max_lines > 0 ? size_t(play.max_lines) : static_cast<size_t>(-1);
                    size_t written = 0;
                    // Writes the line prefix + suffix of length `len` into `part`.
                    auto add = [&](std::string& part, int len, const MoveLine& prefix, const MoveLine& suffix) {
                        if (static_cast<int>(prefix.size() + suffix.size()) != len)
                            throw std::logic_error("a line of another length");
                        part += writer.line(static_cast<int>(r), prefix, suffix);
                        twin_games.push_back(
                            {int(t), int(r), writer.first(int(r)), writer.game(int(r), prefix, suffix)});
                        ++written;
                    };
                    parts.resize(play.lengths.size());
                    for (size_t i = 0; i < play.lengths.size() && written < limit; ++i) {
                        const int len = play.lengths[i];
                        std::string& part = parts[i];
                        if (len <= play.depth) {
                            for (const MoveLine& line : res.start.lines[index_of(start_lengths, len)]) {
                                if (written == limit) break;
                                add(part, len, {}, line);
                            }
                            continue;
                        }
                        const size_t at = index_of(node_lengths, len);
                        for (const auto& [node, k] : play.order) {
                            if (written == limit) break;
                            if (size_t(node) + 1 >= needed) throw std::logic_error("a node the text does not need");
                            const MoveLine& prefix = play.nodes.at(size_t(node)).prefixes.at(size_t(k));
                            for (const MoveLine& suffix : res.nodes[size_t(node)].lines[at]) {
                                if (written == limit) break;
                                add(part, len, prefix, suffix);
                            }
                        }
                    }
                    f.stopped = written == limit;
                }
            }
            if (play.blocked) parts.assign(1, std::string());
            fragments.push_back(std::move(f));
            texts.push_back(std::move(parts));
            out.phases.push_back(phase);
        }
        // As one process: a twin cut by the time limit writes nothing, nor do the twins after it.
        cut = cut || twin_timed_out;
        if (!cut) games.insert(games.end(), twin_games.begin(), twin_games.end());
        twins.push_back(std::move(out));
    }
    SolveReport report = assemble_twins(p, twins, fragments, texts, limits);
    report.proof_games = std::move(games);
    return report;
}

}  // namespace rebirth
