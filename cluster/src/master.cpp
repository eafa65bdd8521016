#include "rebirth/cluster/master.h"

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "rebirth/error.h"
#include "rebirth/popeye_input.h"
#include "rebirth/popeye_output.h"
#include "rebirth/retro_problem.h"
#include "rebirth/solve.h"

namespace rebirth::cluster {

namespace fs = std::filesystem;
using clock_type = std::chrono::steady_clock;

// A proof-game item: play `play` of twin `twin`, its start item (node -1) or a frontier node.
struct ProofItem {
    int twin = 0;
    int play = 0;
    int node = -1;
};

// A retro item: item `item` of side `side` of twin `twin` of the problem's retro plan.
struct RetroItem {
    int twin = 0;
    int side = 0;
    int item = 0;
};

// The key of a retro item: "TWIN.SIDE/rKxCHUNK.ITEM" ("0.1/r2x40.3": twin a), Black moved
// last, the fourth item of 40 prefixes of two retractions).
std::string retro_item_key(int twin, int side, int k, int chunk, int item) {
    return std::to_string(twin) + "." + std::to_string(side) + "/r" + std::to_string(k) + "x" + std::to_string(chunk) +
           "." + std::to_string(item);
}

// The prefix length and chunk of a retro item key; false when `key` is none.
bool retro_key_plan(const std::string& key, int& k, int& chunk) {
    const auto slash = key.find("/r");
    if (slash == std::string::npos) return false;
    const auto x = key.find('x', slash);
    const auto dot = key.find('.', slash);
    if (x == std::string::npos || dot == std::string::npos || dot < x) return false;
    try {
        k = std::stoi(key.substr(slash + 2, x - slash - 2));
        chunk = std::stoi(key.substr(x + 1, dot - x - 1));
    } catch (const std::exception&) {
        return false;
    }
    return k > 0 && chunk > 0;
}

// The record of a solve item's lines and trees: their keys (play_line_key, play_tree_key).
FragmentRecord fragment_record(const std::vector<std::vector<PlayLine>>& lines, const std::vector<PlayTree>& trees) {
    FragmentRecord rec;
    for (const std::vector<PlayLine>& part : lines) {
        rec.lines.emplace_back();
        for (const PlayLine& l : part) rec.lines.back().push_back(play_line_key(l));
    }
    for (const PlayTree& t : trees) rec.trees.push_back(play_tree_key(t));
    return rec;
}

// The solve fragment a record keeps; throws std::invalid_argument on a malformed key.
SolveFragment solve_fragment_of(const FragmentRecord& rec) {
    SolveFragment f;
    for (const std::vector<std::string>& part : rec.lines) {
        f.lines.emplace_back();
        for (const std::string& key : part) f.lines.back().push_back(parse_play_line_key(key));
    }
    for (const std::string& key : rec.trees) f.trees.push_back(parse_play_tree_key(key));
    f.nodes = rec.nodes;
    f.seconds = rec.seconds;
    f.timed_out = rec.timed_out;
    return f;
}

// The record of a retro item's data: its sequences' and trees' keys (retro_sequence_key,
// retractor_step_key).
FragmentRecord retro_record(const RetroFragment& f) {
    FragmentRecord rec;
    for (const std::vector<UnMove>& seq : f.sequences) rec.sequences.push_back(retro_sequence_key(seq));
    rec.key_choices = f.key_choices;
    rec.unresolved_choices = f.unresolved_choices;
    for (const RetractorStep& step : f.keys) rec.keys.push_back(retractor_step_key(step));
    for (const RetractorStep& step : f.unresolved) rec.unresolved.push_back(retractor_step_key(step));
    return rec;
}

// The retro fragment a record keeps; throws std::invalid_argument on a malformed key.
RetroFragment retro_fragment_of(const FragmentRecord& rec) {
    RetroFragment f;
    for (const std::string& key : rec.sequences) f.sequences.push_back(parse_retro_sequence_key(key));
    f.key_choices = rec.key_choices;
    f.unresolved_choices = rec.unresolved_choices;
    for (const std::string& key : rec.keys) f.keys.push_back(parse_retractor_step_key(key));
    for (const std::string& key : rec.unresolved) f.unresolved.push_back(parse_retractor_step_key(key));
    return f;
}

struct Master::ProblemRun {
    const JobProblem* spec = nullptr;
    std::uint32_t index = 0;
    std::unique_ptr<LoadedProblem> loaded;                                    // perft
    std::uint64_t file_hash = 0;                                              // every kind
    std::optional<SolveRecord> solved;                                        // solve
    std::optional<Problem> source;                                            // solve: the problem as read
    std::optional<Problem> problem;                                           // solve, when split
    SolvePlan plan;                                                           // solve: its root items
    bool proof_candidate = false;                                             // solve: maybe a proof game to split
    std::optional<ProofGamePlan> proof;                                       // a proof game split at its frontier
    std::map<std::string, ProofItem> proof_items;                             // proof item key -> its place in `proof`
    std::vector<std::string> proof_keys;                                      // proof item keys in plan order
    std::map<std::pair<int, int>, std::vector<std::string>> proof_play_keys;  // (twin, play) -> its keys in order
    std::set<std::pair<int, int>> proof_settled;              // MaxSolutions plays whose text is known (settle_proof)
    std::map<std::string, ProofRecord> proofs;                // proof items done, by key
    std::map<std::string, std::size_t> root_items;            // item key -> index in plan.items
    std::map<std::string, FragmentRecord> fragments;          // split solve: by item key
    std::map<std::string, std::vector<std::string>> replies;  // root item key -> reply keys
    std::map<std::string, std::pair<std::size_t, Path>> shares;    // reply key -> root item, path
    bool retro_candidate = false;                                  // a retro problem to split (plan_retro_run)
    std::optional<RetroPlan> retro;                                // a retro problem split by retraction prefixes
    std::map<std::string, RetroItem> retro_items;                  // retro item key -> its place in `retro`
    std::vector<std::string> retro_keys;                           // retro item keys in plan order
    std::vector<std::pair<std::string, std::string>> first_moves;  // token, Popeye name
    ProblemProgress progress;
    std::string error;
    int in_flight = 0;
    bool written = false;
    int threads = 0;
    std::optional<clock_type::time_point> started;
    double seconds = 0;
};

std::string divide_text(const std::vector<std::pair<std::string, std::uint64_t>>& counts) {
    std::ostringstream out;
    std::uint64_t total = 0;
    for (const auto& [move, n] : counts) {
        out << move << ": " << n << "\n";
        total += n;
    }
    out << total << "\n";
    return out.str();
}

Master::Master(Job job, MasterOptions options) : job_(std::move(job)), options_(options) {
    start_ = last_report_ = clock_type::now();
    std::ostringstream fp;
    fp << "kind=" << job_.kind;
    for (std::uint32_t i = 0; i < job_.problems.size(); ++i) {
        auto run = std::make_unique<ProblemRun>();
        run->spec = &job_.problems[i];
        run->index = i;
        run->error = run->spec->error;
        if (run->error.empty()) {
            try {
                if (run->spec->kind == "perft") {
                    run->loaded = std::make_unique<LoadedProblem>(load_problem(run->spec->file, run->spec->index));
                    run->file_hash = run->loaded->file_hash;
                    for (auto& [path, name] : root_moves(run->loaded->root))
                        run->first_moves.push_back({path_key(path), name});
                } else {
                    const std::string bytes = read_file_bytes(run->spec->file);
                    run->file_hash = checksum(bytes);
                    if (solves(run->spec->kind)) plan_split(*run, bytes);
                }
            } catch (const InputError& e) {
                run->error = e.what();
            }
        }
        fp << ";" << run->spec->id << ":" << run->spec->depth << ":"
           << (run->error.empty() ? std::to_string(run->file_hash) : std::string("error"));
        if (solves(run->spec->kind) || run->spec->kind == "cookcheck")
            fp << ":" << run->spec->kind << ":" << run->spec->index << ":" << run->spec->limits.max_seconds;
        if (run->spec->kind == "noop") fp << ":noop:" << run->spec->items;
        runs_.push_back(std::move(run));
    }
    std::ostringstream hex;
    hex << std::hex << std::setw(16) << std::setfill('0') << checksum(fp.str());
    fingerprint_ = hex.str();

    std::error_code ec;
    fs::create_directories(job_.output_dir, ec);
    if (ec) throw InputError(job_.source, 0, job_.output_dir, "cannot create the output directory: " + ec.message());
    if (fs::path(job_.journal).has_parent_path()) fs::create_directories(fs::path(job_.journal).parent_path(), ec);
    JournalState state;
    if (options_.resume) {
        state = read_journal(job_.journal);
        if (!state.fingerprint.empty() && state.fingerprint != fingerprint_)
            throw InputError(job_.journal, 1, state.fingerprint,
                             "the journal belongs to another job (or the problem files changed); fingerprint " +
                                 fingerprint_ + " expected");
    } else if (fs::exists(job_.journal) && fs::file_size(job_.journal) > 0) {
        throw InputError(job_.journal, 0, job_.journal, "the journal exists: continue it with --resume or remove it");
    }
    journal_ = std::make_unique<JournalWriter>(job_.journal, state.valid_bytes);
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    journal_->append(journal_start(fingerprint_, long(::getpid()), host, options_.worker_ranks));
    if (options_.progress && state.runs > 0)
        *options_.progress << "rebirth-cluster: resuming " << job_.journal << " (run " << state.runs + 1 << ")\n";

    for (auto& run : runs_) {
        if (!run->error.empty()) continue;
        auto it = state.problems.find(run->spec->id);
        if (run->proof_candidate) {
            auto journaled = state.plans.find(run->spec->id);
            plan_proof(*run, journaled == state.plans.end() ? nullptr : &journaled->second);
        }
        if (run->retro_candidate) {
            auto journaled = state.plans.find(run->spec->id);
            plan_retro_run(*run, journaled == state.plans.end() ? nullptr : &journaled->second);
        }
        if (it != state.problems.end()) {
            run->progress = std::move(it->second);
            if (auto rec = state.solved.find(run->spec->id); rec != state.solved.end()) run->solved = rec->second;
            if (auto f = state.fragments.find(run->spec->id); f != state.fragments.end())
                run->fragments = std::move(f->second);
            if (auto p = state.proofs.find(run->spec->id); p != state.proofs.end()) {
                for (auto& [key, rec] : p->second) {
                    try {
                        check_proof_record(*run, key, rec);
                    } catch (const std::logic_error& e) {
                        throw InputError(
                            job_.journal, 0, run->spec->id,
                            "the journal's proof-game items do not fit the problem: " + std::string(e.what()));
                    }
                }
                run->proofs = std::move(p->second);
            }
            if (auto r = state.replies.find(run->spec->id); r != state.replies.end()) {
                try {
                    for (const auto& [root, children] : r->second) add_replies(*run, root, children);
                } catch (const std::logic_error& e) {
                    throw InputError(job_.journal, 0, run->spec->id,
                                     std::string("the journal's replies do not fit the problem: ") + e.what());
                }
            }
            // The journaled solutions of a split solve problem's items fit them (as a result's must),
            // and so do the journaled answers of a retro problem's items.
            for (const auto& [key, rec] : run->fragments) {
                try {
                    if (run->retro)
                        check_retro(*run, key, retro_fragment_of(rec));
                    else
                        check_fragment(*run, key, solve_fragment_of(rec));
                } catch (const std::exception& e) {
                    throw InputError(job_.journal, 0, run->spec->id,
                                     std::string("the journal's ") + (run->retro ? "retro" : "solve") +
                                         " items do not fit the problem: " + e.what());
                }
            }
            // MaxSolutions plays whose first lines the journaled items hold: the rest is not searched.
            if (run->proof)
                for (const auto& [play, keys] : run->proof_play_keys) settle_proof(*run, play.first, play.second);
        } else {
            plan_problem(*run);
        }
        for (const std::string& p : run->progress.pending()) queue_.push_back({run->index, p});
        maybe_finish(*run);
    }
    emit_summaries();
}

Master::~Master() = default;

// A solve problem's root items (plan_solve), when it splits into more than one; the
// problem stays one item otherwise (and when the worker is to report its bad input).
void Master::plan_split(ProblemRun& run, const std::string& bytes) {
    try {
        const std::vector<Problem> problems = parse_popeye(bytes, run.spec->file);
        if (run.spec->index < 1 || run.spec->index > int(problems.size())) return;
        run.source = problems[std::size_t(run.spec->index - 1)];
        if (problems[std::size_t(run.spec->index - 1)].stipulation.retro()) {
            // A retro problem: split by retraction prefixes once the journal is read (plan_retro_run).
            run.problem = problems[std::size_t(run.spec->index - 1)];
            run.retro_candidate = true;
            return;
        }
        SolvePlan plan = plan_solve(problems[std::size_t(run.spec->index - 1)]);
        if (!plan.splittable) {
            // Perhaps a proof game: split at its frontier once the journal is read (plan_proof).
            run.problem = problems[std::size_t(run.spec->index - 1)];
            run.proof_candidate = true;
            return;
        }
        if (plan.items.size() < 2) return;
        for (std::size_t i = 0; i < plan.items.size(); ++i) run.root_items[solve_item_key(plan.items[i])] = i;
        run.problem = problems[std::size_t(run.spec->index - 1)];
        run.plan = std::move(plan);
    } catch (const std::exception&) {
        run.root_items.clear();
        run.problem.reset();
        run.proof_candidate = false;
        run.retro_candidate = false;
    }
}

// A retro problem split by retraction prefixes (plan_retro): fresh, aiming at items_per_rank
// items per worker rank, or with the prefix length of `journaled` (the items of its
// journaled plan). It stays one item when the plan has fewer than two items, when the
// journal planned it whole, or when it does not plan (bad conditions: the worker reports
// them). Throws InputError when the journaled items are not those of the plan they name.
void Master::plan_retro_run(ProblemRun& run, const std::vector<std::string>* journaled) {
    int k = 0, chunk = 0;
    if (journaled && (journaled->empty() || !retro_key_plan(journaled->front(), k, chunk))) return;  // planned whole
    RetroPlan plan;
    try {
        plan =
            plan_retro(*run.problem, std::max(1, run.spec->limits.items_per_rank * std::max(1, options_.worker_ranks)),
                       20000, k, chunk);
    } catch (const std::exception& e) {
        if (journaled)
            throw InputError(job_.journal, 0, run.spec->id,
                             std::string("the journal's plan does not fit the problem's retro split: ") + e.what());
        return;
    }
    std::vector<std::string> keys;
    std::map<std::string, RetroItem> items;
    for (std::size_t t = 0; t < plan.twins.size(); ++t)
        for (std::size_t side = 0; side < plan.twins[t].sides.size(); ++side)
            for (int i = 0; i < plan.twins[t].sides[side].items; ++i) {
                keys.push_back(retro_item_key(int(t), int(side), plan.k, plan.chunk, i));
                items[keys.back()] = {int(t), int(side), i};
            }
    if (journaled && keys != *journaled)
        throw InputError(job_.journal, 0, run.spec->id, "the journal's plan does not fit the problem's retro split");
    if (keys.size() < 2) return;
    run.retro = std::move(plan);
    run.retro_keys = std::move(keys);
    run.retro_items = std::move(items);
}

// A solve problem that plan_solve does not split, split at its frontier when it is a proof
// game (plan_proof_games): fresh, aiming at items_per_rank items per worker rank in each
// play, or with the frontier depths of `journaled` (the items of its journaled plan, whose
// start item keys name them). It stays one item when it does not split into two items or
// more, or when the journal planned it whole. Throws InputError when the journaled items are
// not those of the plan they name.
void Master::plan_proof(ProblemRun& run, const std::vector<std::string>* journaled) {
    ProofSplitOptions options;
    if (journaled) {
        for (const std::string& key : *journaled) {
            int twin = 0, play = 0;
            const int depth = proof_start_depth(key, twin, play);
            if (depth >= 0) options.depths[{twin, play}] = depth;
        }
        if (options.depths.empty()) return;  // planned whole (or by root moves)
    } else {
        options.target_nodes = std::max(1, run.spec->limits.items_per_rank * std::max(1, options_.worker_ranks));
    }
    ProofGamePlan plan = plan_proof_games(*run.problem, options);
    std::vector<std::string> keys;
    std::map<std::string, ProofItem> items;
    std::map<std::pair<int, int>, std::vector<std::string>> play_keys;
    for (std::size_t t = 0; plan.splittable && t < plan.twins.size(); ++t) {
        for (std::size_t r = 0; r < plan.twins[t].plays.size(); ++r) {
            const ProofPlayPlan& play = plan.twins[t].plays[r];
            if (play.blocked) continue;
            keys.push_back(proof_start_key(int(t), int(r), play.depth));
            items[keys.back()] = {int(t), int(r), -1};
            play_keys[{int(t), int(r)}].push_back(keys.back());
            for (std::size_t n = 0; n < play.nodes.size(); ++n) {
                keys.push_back(proof_node_key(int(t), int(r), play.nodes[n].prefixes.front()));
                items[keys.back()] = {int(t), int(r), int(n)};
                play_keys[{int(t), int(r)}].push_back(keys.back());
            }
        }
    }
    if (journaled && keys != *journaled)
        throw InputError(job_.journal, 0, run.spec->id,
                         "the journal's plan does not fit the problem's proof-game split" +
                             (plan.splittable ? std::string() : " (" + plan.reason + ")"));
    if (!plan.splittable || keys.size() < 2) return;
    run.proof = std::move(plan);
    run.proof_keys = std::move(keys);
    run.proof_items = std::move(items);
    run.proof_play_keys = std::move(play_keys);
}

// Play `play` of twin `twin` of a split proof game with MaxSolutions: once its items done so
// far hold its first max_lines lines (proof_play_items_needed), the items after them are not
// searched: dropped from the queue and done in the progress (not journaled: a resumed run
// finds the same from the journaled items), and the results of those in flight are ignored.
void Master::settle_proof(ProblemRun& run, int twin, int play) {
    const ProofPlayPlan& plan = run.proof->twins.at(std::size_t(twin)).plays.at(std::size_t(play));
    if (plan.blocked || plan.max_lines <= 0 || run.proof_settled.count({twin, play})) return;
    const std::vector<std::string>& keys = run.proof_play_keys.at({twin, play});
    std::vector<std::optional<ProofItemTally>> items(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) {
        auto it = run.proofs.find(keys[i]);
        if (it == run.proofs.end()) continue;
        ProofItemTally tally;
        tally.timed_out = it->second.timed_out;
        for (const std::vector<std::string>& lines : it->second.lines) tally.lines.push_back(lines.size());
        items[i] = std::move(tally);
    }
    const std::optional<std::size_t> needed = proof_play_items_needed(plan, items);
    if (!needed) return;
    run.proof_settled.insert({twin, play});
    std::set<std::string> cancelled;
    for (std::size_t i = *needed; i < keys.size(); ++i)
        if (run.progress.is_pending(keys[i])) cancelled.insert(keys[i]);
    if (cancelled.empty()) return;
    for (const std::string& key : cancelled) run.progress.done(key, 0);
    std::erase_if(queue_, [&](const Pending& p) { return p.problem == run.index && cancelled.count(p.path); });
    for (auto& [id, p] : in_flight_) {
        if (p.problem != run.index || p.cancelled || !cancelled.count(p.path)) continue;
        p.cancelled = true;
        --run.in_flight;
    }
    if (options_.progress)
        *options_.progress << "rebirth-cluster: " << run.spec->id << ": twin " << twin << " play " << play
                           << ": its first " << plan.max_lines << " line(s) known, " << cancelled.size()
                           << " item(s) left unsearched (MaxSolutions)\n";
}

// Checks that `rec` answers proof item `key` of `run`: one list of lines per length of the
// item (none when timed out), each line a path of the length's moves after the item's path.
// Throws std::logic_error naming the misfit.
void Master::check_proof_record(const ProblemRun& run, const std::string& key, const ProofRecord& rec) const {
    auto it = run.proof_items.find(key);
    if (!run.proof || it == run.proof_items.end())
        throw std::logic_error("'" + key + "' is no proof-game item of the problem");
    const ProofItem& item = it->second;
    const ProofPlayPlan& play = run.proof->twins[std::size_t(item.twin)].plays[std::size_t(item.play)];
    const std::vector<int> lengths = play.item_lengths(item.node < 0);
    if (rec.timed_out) {
        if (!rec.lines.empty()) throw std::logic_error("item '" + key + "' timed out with lines");
        return;
    }
    if (rec.lines.size() != lengths.size())
        throw std::logic_error("item '" + key + "' has lines of " + std::to_string(rec.lines.size()) +
                               " length(s), its plan " + std::to_string(lengths.size()));
    const int before = item.node < 0 ? 0 : play.depth;
    for (std::size_t i = 0; i < lengths.size(); ++i)
        for (const std::string& line : rec.lines[i]) {
            Path path;
            try {
                path = parse_path_key(line);
            } catch (const std::invalid_argument& e) {
                throw std::logic_error("item '" + key + "': " + e.what());
            }
            if (int(path.size()) != lengths[i] - before)
                throw std::logic_error("item '" + key + "' has a line '" + line + "' of " +
                                       std::to_string(path.size()) + " moves, " + std::to_string(lengths[i] - before) +
                                       " expected");
        }
}

// Throws std::logic_error unless `f` (the solutions of solve item `key`) fits its item: its
// lines and trees are of the item's play and their moves legal (fragment_text renders them).
void Master::check_fragment(const ProblemRun& run, const std::string& key, const SolveFragment& f) const {
    if (!run.problem) throw std::logic_error("'" + key + "' is no item of a split solve problem");
    SolveRootItem item;
    if (auto r = run.root_items.find(key); r != run.root_items.end()) {
        item = run.plan.items.at(r->second);
    } else if (auto s = run.shares.find(key); s != run.shares.end()) {
        bool found = false;
        for (const SolveRootItem& share : solve_replies(*run.problem, run.plan.items.at(s->second.first)))
            if (solve_item_path(share) == s->second.second) {
                item = share;
                found = true;
            }
        if (!found) throw std::logic_error("'" + key + "' is no reply of the problem");
    } else {
        throw std::logic_error("'" + key + "' is no item of the problem");
    }
    try {
        (void)fragment_text(*run.problem, item, f);
    } catch (const std::invalid_argument& e) {
        throw std::logic_error("the solutions of '" + key + "' do not fit it: " + e.what());
    }
}

// The output of a problem solved whole from a worker's result (whole_problem_text), its
// summary checked against the result's. Throws std::logic_error when they do not fit.
std::string Master::whole_text(const ProblemRun& run, const std::string& key, const Result& result) const {
    if (!result.text.empty()) throw std::logic_error("a solve item answered with text");
    if (!run.source) throw std::logic_error("a solved result for a problem the master could not read");
    std::string status;
    int solutions = 0;
    std::string text;
    try {
        text = whole_problem_text(*run.source, result, run.spec->limits.max_seconds, &status, &solutions);
    } catch (const std::exception& e) {
        throw std::logic_error("the solutions of '" + key + "' do not fit it: " + e.what());
    }
    if (status != result.solve_status || solutions != result.solutions)
        throw std::logic_error("the summary of '" + key + "' (" + result.solve_status + ", " +
                               std::to_string(result.solutions) + " solutions) does not fit its solutions (" + status +
                               ", " + std::to_string(solutions) + ")");
    return text;
}

// Throws std::logic_error when the data of retro item `key` does not fit it
// (check_retro_fragment).
void Master::check_retro(const ProblemRun& run, const std::string& key, const RetroFragment& f) const {
    auto it = run.retro_items.find(key);
    if (!run.retro || !run.problem || it == run.retro_items.end())
        throw std::logic_error("'" + key + "' is no item of a split retro problem");
    try {
        check_retro_fragment(*run.problem, *run.retro, it->second.twin, it->second.side, f);
    } catch (const std::invalid_argument& e) {
        throw std::logic_error("the answer of '" + key + "' does not fit it: " + e.what());
    }
}

// Records that root item `root` of a split solve problem is handed back as its replies
// `children` (keys in reply order). Throws std::logic_error when they do not fit.
void Master::add_replies(ProblemRun& run, const std::string& root, const std::vector<std::string>& children) {
    auto it = run.root_items.find(root);
    if (it == run.root_items.end()) throw std::logic_error("'" + root + "' is not a root item of the problem");
    const std::string prefix = root + " ";
    for (const std::string& c : children) {
        if (c.compare(0, prefix.size(), prefix) != 0)
            throw std::logic_error("'" + c + "' is no reply to '" + root + "'");
        Path path = parse_path_key(c.substr(c.find('/') + 1));
        if (path.size() != 2) throw std::logic_error("'" + c + "' is no reply to '" + root + "'");
        run.shares[c] = {it->second, std::move(path)};
    }
    run.replies[root] = children;
}

// The items of a problem: a perft tree's split, the root items (plan_split) or the one
// item "*" (every twin) of a solve problem, the items "#1".."#N" of a noop problem.
void Master::plan_problem(ProblemRun& run) {
    std::vector<std::string> items;
    if (solves(run.spec->kind)) {
        if (run.proof)
            items = run.proof_keys;
        else if (run.retro)
            items = run.retro_keys;
        else if (!run.root_items.empty())
            for (const SolveRootItem& r : run.plan.items) items.push_back(solve_item_key(r));
        else
            items.push_back(kSolveItem);
    } else if (run.spec->kind == "cookcheck") {
        items.push_back(kSolveItem);
    } else if (run.spec->kind == "noop") {
        for (int i = 1; i <= run.spec->items; ++i) items.push_back("#" + std::to_string(i));
    } else {
        const int target = std::max(1, run.spec->limits.items_per_rank * std::max(1, options_.worker_ranks));
        for (const Path& p : initial_split(run.loaded->root, run.spec->depth, target)) items.push_back(path_key(p));
    }
    run.progress.plan(items);
    journal_->append(journal_plan(run.spec->id, items));
}

std::optional<WorkItem> Master::next_item() {
    if (stopped_) return std::nullopt;
    while (!queue_.empty()) {
        Pending p = std::move(queue_.front());
        queue_.pop_front();
        ProblemRun& run = *runs_[p.problem];
        if (!run.error.empty()) continue;
        WorkItem item;
        item.item_id = next_id_++;
        item.problem = p.problem;
        item.file = run.spec->file;
        item.problem_index = run.spec->index;
        item.file_hash = run.file_hash;
        item.threads = run.spec->limits.threads;
        if (run.spec->kind == "perft") {
            item.kind = SearchKind::Perft;
            item.path = parse_path_key(p.path);
            item.depth = run.spec->depth - int(item.path.size());
            item.budget_seconds = run.spec->limits.item_seconds;
        } else if (run.spec->kind == "cookcheck") {
            item.kind = SearchKind::Cookcheck;
            item.max_seconds = run.spec->limits.max_seconds;
        } else {
            item.kind = solves(run.spec->kind) ? SearchKind::Solve : SearchKind::Noop;
            item.max_seconds = run.spec->limits.max_seconds;
            if (item.kind == SearchKind::Solve && run.retro) {
                auto it = run.retro_items.find(p.path);
                if (it == run.retro_items.end()) {
                    fail(run, "journal item '" + p.path + "' is no retro item of the problem");
                    continue;
                }
                item.kind = SearchKind::Retro;
                item.twin = it->second.twin;
                item.phase = it->second.side;
                item.depth = run.retro->k;
                item.prefix = it->second.item;
                item.chunk = run.retro->chunk;
            } else if (item.kind == SearchKind::Solve && run.proof) {
                auto it = run.proof_items.find(p.path);
                if (it == run.proof_items.end()) {
                    fail(run, "journal item '" + p.path + "' is no proof-game item of the problem");
                    continue;
                }
                const ProofItem& proof = it->second;
                const ProofPlayPlan& play = run.proof->twins[std::size_t(proof.twin)].plays[std::size_t(proof.play)];
                item.kind = SearchKind::ProofGame;
                item.twin = proof.twin;
                item.phase = proof.play;
                if (proof.node >= 0) item.path = path_of(play.nodes[std::size_t(proof.node)].prefixes.front());
                for (int len : play.item_lengths(proof.node < 0)) item.lengths.push_back(len);
            } else if (item.kind == SearchKind::Solve && p.path != kSolveItem) {
                auto it = run.root_items.find(p.path);
                auto share = run.shares.find(p.path);
                if (it == run.root_items.end() && share == run.shares.end()) {
                    fail(run, "journal item '" + p.path + "' is not a root item of the problem");
                    continue;
                }
                const SolveRootItem& r = run.plan.items[it != run.root_items.end() ? it->second : share->second.first];
                item.twin = r.twin;
                item.phase = r.phase;
                if (it != run.root_items.end()) {
                    item.path = solve_item_path(r);
                    item.budget_seconds = run.spec->limits.item_seconds;
                } else {
                    item.path = share->second.second;
                }
            }
        }
        if (!run.started) run.started = clock_type::now();
        if (!first_out_) first_out_ = clock_type::now();
        ++run.in_flight;
        in_flight_.emplace(item.item_id, std::move(p));
        return item;
    }
    return std::nullopt;
}

void Master::on_result(const Result& result) {
    if (stopped_) return;
    auto it = in_flight_.find(result.item_id);
    if (it == in_flight_.end() || it->second.problem != result.problem)
        throw ProtocolError("result for item " + std::to_string(result.item_id) + ", which is not in flight");
    Pending p = std::move(it->second);
    in_flight_.erase(it);
    last_in_ = clock_type::now();
    ++items_done_;
    nodes_done_ += result.nodes;
    ProblemRun& run = *runs_[p.problem];
    if (p.cancelled) {  // its play's text is known without it (settle_proof): ignored
        ++results_taken_;
        report_progress(false);
        if (options_.stop_after_results && results_taken_ >= *options_.stop_after_results) stopped_ = true;
        return;
    }
    --run.in_flight;
    run.threads = std::max(run.threads, int(result.threads));
    if (!run.error.empty()) return;
    // Cook-check items answer as a solve problem of one item does.
    const bool solve = solves(run.spec->kind) || run.spec->kind == "cookcheck";
    const bool proof_item = run.proof_items.count(p.path) != 0;
    const bool fragment = solve && !proof_item && p.path != kSolveItem;
    if (proof_item || result.status == Result::Status::Proof) {
        if (!proof_item || (result.status != Result::Status::Proof && result.status != Result::Status::Error))
            throw ProtocolError("result of status " + std::to_string(int(result.status)) + " for a " +
                                (proof_item ? "proof-game" : run.spec->kind) + " item");
    } else if (result.status != Result::Status::Error && result.status != Result::Status::Split &&
               (solve != (result.status == Result::Status::Solved || result.status == Result::Status::Fragment) ||
                (solve && fragment != (result.status == Result::Status::Fragment)))) {
        throw ProtocolError("result of status " + std::to_string(int(result.status)) + " for a " + run.spec->kind +
                            " item");
    }
    const bool root_item = fragment && run.root_items.count(p.path) != 0;
    if (result.status == Result::Status::Split && run.spec->kind != "perft" && !root_item)
        throw ProtocolError("split result for a " + run.spec->kind + " item that is no root item");
    try {
        switch (result.status) {
            case Result::Status::Solved: {
                SolveRecord rec{result.text,  result.solve_status, int(result.solutions),
                                result.nodes, result.seconds,      int(result.threads)};
                if (run.spec->kind == "cookcheck") {
                    if (result.text.empty() || !result.outputs.empty() || !result.retro_whole.empty())
                        throw std::logic_error("a cook-check item answered without its claim's result");
                } else {
                    rec.text = whole_text(run, p.path, result);
                }
                run.progress.done(p.path, rec.nodes);
                journal_->append(journal_solved(run.spec->id, p.path, rec));
                run.solved = std::move(rec);
                break;
            }
            case Result::Status::Fragment: {
                FragmentRecord rec;
                if (run.retro) {
                    if (!result.lines.empty() || !result.trees.empty())
                        throw std::logic_error("a retro item answered with lines or trees of play");
                    check_retro(run, p.path, result.retro);
                    rec = retro_record(result.retro);
                } else {
                    if (result.retro != RetroFragment{})
                        throw std::logic_error("a solve item answered with retro data");
                    check_fragment(run, p.path, {result.lines, result.trees, 0, 0, result.timed_out});
                    rec = fragment_record(result.lines, result.trees);
                }
                rec.timed_out = result.timed_out;
                rec.nodes = result.nodes;
                rec.seconds = result.seconds;
                rec.threads = int(result.threads);
                run.progress.done(p.path, rec.nodes);
                journal_->append(journal_fragment(run.spec->id, p.path, rec));
                run.fragments[p.path] = std::move(rec);
                break;
            }
            case Result::Status::Proof: {
                ProofRecord rec;
                rec.timed_out = result.timed_out;
                rec.nodes = result.nodes;
                rec.seconds = result.seconds;
                rec.threads = int(result.threads);
                for (const std::vector<Path>& lines : result.proof_lines) {
                    rec.lines.emplace_back();
                    for (const Path& line : lines) rec.lines.back().push_back(path_key(path_of(moves_of(line))));
                }
                check_proof_record(run, p.path, rec);
                run.progress.done(p.path, rec.nodes);
                journal_->append(journal_proof(run.spec->id, p.path, rec));
                run.proofs[p.path] = std::move(rec);
                const ProofItem& item = run.proof_items.at(p.path);
                settle_proof(run, item.twin, item.play);
                break;
            }
            case Result::Status::Done:
                run.progress.done(p.path, result.nodes);
                journal_->append(journal_done(run.spec->id, p.path, result.nodes));
                break;
            case Result::Status::Split: {
                if (solve) {
                    // A root item handed back as its replies: `pending` names them all.
                    const std::string prefix = p.path.substr(0, p.path.find('/') + 1);
                    std::vector<std::string> children;
                    for (const Path& c : result.pending) children.push_back(prefix + path_key(c));
                    std::map<std::string, FragmentRecord> done;
                    std::map<std::string, std::uint64_t> nodes;
                    add_replies(run, p.path, children);
                    for (const ChildFragment& f : result.fragments) {
                        const std::string key = prefix + path_key(f.path);
                        check_fragment(run, key, {f.lines, {}, 0, 0, f.timed_out});
                        FragmentRecord rec = fragment_record(f.lines, {});
                        rec.timed_out = f.timed_out;
                        rec.nodes = f.nodes;
                        rec.seconds = f.seconds;
                        rec.threads = int(result.threads);
                        done[key] = std::move(rec);
                        nodes[key] = f.nodes;
                    }
                    run.progress.split_in_order(p.path, children, nodes);
                    journal_->append(journal_reply_split(run.spec->id, p.path, children, done));
                    for (auto& [key, rec] : done) run.fragments[key] = std::move(rec);
                    for (auto c = children.rbegin(); c != children.rend(); ++c)
                        if (!done.count(*c)) queue_.push_front({p.problem, *c});
                    break;
                }
                std::vector<std::pair<std::string, std::uint64_t>> done;
                std::vector<std::string> pending;
                for (const ChildCount& c : result.done) done.push_back({path_key(c.path), c.nodes});
                for (const Path& c : result.pending) pending.push_back(path_key(c));
                run.progress.split(p.path, done, pending);
                journal_->append(journal_split(run.spec->id, p.path, done, pending));
                for (auto c = pending.rbegin(); c != pending.rend(); ++c) queue_.push_front({p.problem, *c});
                break;
            }
            case Result::Status::Error:
                fail(run, "worker failed on item '" + p.path + "': " + result.error);
                break;
        }
    } catch (const std::logic_error& e) {
        throw ProtocolError("result for item '" + p.path + "' does not fit: " + e.what());
    }
    ++results_taken_;
    maybe_finish(run);
    emit_summaries();
    report_progress(false);
    if (options_.stop_after_results && results_taken_ >= *options_.stop_after_results) stopped_ = true;
}

void Master::fail(ProblemRun& run, const std::string& message) {
    run.error = message;
    if (options_.progress) *options_.progress << "rebirth-cluster: " << run.spec->id << ": " << message << "\n";
}

// A proof-game problem's output from its items' lines (assemble_proof_games), journaled as
// its "solved" line with an empty path; fails the problem when they do not assemble.
void Master::assemble_proof(ProblemRun& run) {
    SolveRecord rec;
    SolveReport report;
    try {
        std::vector<std::vector<ProofPlayResults>> results;
        // An item's result; with MaxSolutions an item left unsearched (settle_proof) has none,
        // and assemble_proof_games does not need it.
        auto suffixes = [&](const ProofPlayPlan& play, const std::string& key) {
            auto it = run.proofs.find(key);
            if (it == run.proofs.end() && play.max_lines > 0) return ProofSuffixes{};
            if (it == run.proofs.end()) throw std::logic_error("proof-game item '" + key + "' has no result");
            const ProofRecord& r = it->second;
            rec.threads = std::max(rec.threads, r.threads);
            ProofSuffixes s;
            s.timed_out = r.timed_out;
            s.nodes = r.nodes;
            s.seconds = r.seconds;
            for (const std::vector<std::string>& lines : r.lines) {
                s.lines.emplace_back();
                for (const std::string& line : lines) s.lines.back().push_back(moves_of(parse_path_key(line)));
            }
            return s;
        };
        for (std::size_t t = 0; t < run.proof->twins.size(); ++t) {
            results.emplace_back();
            for (std::size_t r = 0; r < run.proof->twins[t].plays.size(); ++r) {
                const ProofPlayPlan& play = run.proof->twins[t].plays[r];
                ProofPlayResults res;
                if (!play.blocked) {
                    res.start = suffixes(play, proof_start_key(int(t), int(r), play.depth));
                    for (const ProofFrontierNode& node : play.nodes)
                        res.nodes.push_back(suffixes(play, proof_node_key(int(t), int(r), node.prefixes.front())));
                }
                results.back().push_back(std::move(res));
            }
        }
        SolveLimits limits;
        limits.max_seconds = run.spec->limits.max_seconds;
        report = assemble_proof_games(*run.problem, *run.proof, results, limits);
    } catch (const std::exception& e) {
        fail(run, std::string("the proof-game items do not assemble: ") + e.what());
        return;
    }
    rec.text = format_header(*run.problem) + report.text;
    rec.status = report.status();
    rec.solutions = report.solutions;
    rec.nodes = report.nodes;
    rec.seconds = report.seconds;
    journal_->append(journal_solved(run.spec->id, "", rec));
    run.solved = std::move(rec);
}

// Writes a problem's output once its last item is in: ID.perft (the --divide text), ID.out
// (the solve output), ID.json (a cook-check verdict: checked_claim as one JSON line) or ID.noop
// (the item count).
void Master::maybe_finish(ProblemRun& run) {
    if (run.written || !run.error.empty() || !run.progress.finished() || run.in_flight > 0) return;
    std::string text;
    std::string extension;
    if (solves(run.spec->kind)) {
        if (!run.solved && run.proof) assemble_proof(run);
        if (!run.solved && run.retro) assemble_retro_run(run);
        if (!run.solved && !run.root_items.empty()) assemble(run);
        if (!run.error.empty()) return;  // the proof-game items did not assemble
        if (!run.solved) throw std::logic_error("solve problem " + run.spec->id + " finished without a record");
        text = run.solved->text;
        extension = ".out";
    } else if (run.spec->kind == "cookcheck") {
        if (!run.solved) throw std::logic_error("cook-check problem " + run.spec->id + " finished without a record");
        text = run.solved->text;
        extension = ".json";
    } else if (run.spec->kind == "noop") {
        text = std::to_string(run.spec->items) + " items\n";
        extension = ".noop";
    } else {
        std::vector<std::pair<std::string, std::uint64_t>> counts;
        for (const auto& [token, name] : run.first_moves)
            counts.push_back({name, run.progress.first_move_total(token)});
        text = divide_text(counts);
        extension = ".perft";
    }
    const fs::path out = fs::path(job_.output_dir) / (run.spec->id + extension);
    const fs::path tmp = out.string() + ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        f << text;
        if (!f.flush()) throw std::runtime_error("cannot write " + tmp.string());
    }
    fs::rename(tmp, out);
    journal_->append(journal_finished(run.spec->id, run.progress.total()));
    run.written = true;
    if (run.started) run.seconds = std::chrono::duration<double>(clock_type::now() - *run.started).count();
    if (options_.progress) {
        *options_.progress << "rebirth-cluster: " << run.spec->id << " done: ";
        if (run.solved)
            *options_.progress << run.solved->status << ", " << run.solved->solutions << " solution(s), "
                               << run.solved->nodes << " nodes\n";
        else
            *options_.progress << run.progress.total() << (run.spec->kind == "noop" ? " noop items\n" : " leaves\n");
    }
}

// A split solve problem's output from its fragments in plan order, journaled as its
// "solved" line with an empty path.
void Master::assemble(ProblemRun& run) {
    std::vector<SolveFragment> fragments;
    SolveRecord rec;
    auto fragment_of = [&](const std::string& key) {
        auto it = run.fragments.find(key);
        if (it == run.fragments.end()) throw std::logic_error("split problem " + run.spec->id + " lacks a fragment");
        const FragmentRecord& f = it->second;
        rec.threads = std::max(rec.threads, f.threads);
        return solve_fragment_of(f);
    };
    for (const SolveRootItem& r : run.plan.items) {
        const std::string key = solve_item_key(r);
        auto children = run.replies.find(key);
        if (children == run.replies.end()) {
            fragments.push_back(fragment_of(key));
            continue;
        }
        std::vector<SolveFragment> shares;
        for (const std::string& c : children->second) shares.push_back(fragment_of(c));
        fragments.push_back(join_fragments(shares));
    }
    SolveLimits limits;
    limits.max_seconds = run.spec->limits.max_seconds;
    const SolveReport report = assemble_solve(*run.problem, run.plan, fragments, limits);
    rec.text = format_header(*run.problem) + report.text;
    rec.status = report.status();
    rec.solutions = report.solutions;
    rec.nodes = report.nodes;
    rec.seconds = report.seconds;
    journal_->append(journal_solved(run.spec->id, "", rec));
    run.solved = std::move(rec);
}

// A retro problem's output from its items' data in plan order (assemble_retro),
// journaled as its "solved" line with an empty path; fails the problem when they do not
// assemble.
void Master::assemble_retro_run(ProblemRun& run) {
    SolveRecord rec;
    RetroAssembly a;
    try {
        std::vector<std::vector<std::vector<RetroFragment>>> fragments(run.retro->twins.size());
        for (std::size_t t = 0; t < fragments.size(); ++t) fragments[t].resize(run.retro->twins[t].sides.size());
        for (const std::string& key : run.retro_keys) {
            auto f = run.fragments.find(key);
            if (f == run.fragments.end()) throw std::logic_error("retro item '" + key + "' has no result");
            const RetroItem& item = run.retro_items.at(key);
            fragments[std::size_t(item.twin)][std::size_t(item.side)].push_back(retro_fragment_of(f->second));
            rec.nodes += f->second.nodes;
            rec.seconds += f->second.seconds;
            rec.threads = std::max(rec.threads, f->second.threads);
        }
        a = assemble_retro(*run.problem, *run.retro, fragments, true);  // each checked when it came
    } catch (const std::exception& e) {
        fail(run, std::string("the retro items do not assemble: ") + e.what());
        return;
    }
    rec.text = format_header(*run.problem) + a.text;
    rec.status = a.supported ? "solved" : "unsupported";
    rec.solutions = a.count;
    journal_->append(journal_solved(run.spec->id, "", rec));
    run.solved = std::move(rec);
}

void Master::emit_summaries() {
    while (summaries_done_ < runs_.size()) {
        ProblemRun& run = *runs_[summaries_done_];
        if (!run.written && run.error.empty()) break;
        if (options_.summary) {
            nlohmann::ordered_json j;
            j["id"] = run.spec->id;
            if (run.solved && run.error.empty()) {
                j["status"] = run.solved->status;
                j["solutions"] = run.solved->solutions;
                j["nodes"] = run.solved->nodes;
                j["seconds"] = std::round(run.solved->seconds * 1000) / 1000;
                j["ranks"] = options_.worker_ranks;
                j["threads"] = run.solved->threads;
            } else {
                j["status"] = run.error.empty() ? "ok" : "error";
                j["nodes"] = run.error.empty() ? run.progress.total() : 0;
                j["seconds"] = std::round(run.seconds * 1000) / 1000;
                j["ranks"] = options_.worker_ranks;
                j["threads"] = run.threads ? run.threads : run.spec->limits.threads;
            }
            if (!run.error.empty()) j["error"] = run.error;
            *options_.summary << j.dump() << std::endl;
        }
        ++summaries_done_;
    }
}

void Master::report_progress(bool force) {
    if (!options_.progress) return;
    auto now = clock_type::now();
    if (!force && now - last_report_ < std::chrono::seconds(2)) return;
    last_report_ = now;
    std::size_t written = 0;
    for (const auto& run : runs_) written += run->written || !run->error.empty();
    // Items done out of those known so far (a split adds items), the search speed, and the
    // time left if the remaining items take as long on average as the finished ones.
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const std::uint64_t left = queue_.size() + in_flight_.size();
    *options_.progress << "rebirth-cluster: " << written << "/" << runs_.size() << " problems, items " << items_done_
                       << "/" << items_done_ + left << " (" << in_flight_.size() << " in flight), " << std::fixed
                       << std::setprecision(0) << (elapsed > 0 ? double(nodes_done_) / elapsed : 0.0) << " nodes/s, "
                       << std::setprecision(1) << elapsed << " s elapsed";
    if (items_done_ > 0) *options_.progress << ", about " << elapsed * double(left) / double(items_done_) << " s left";
    *options_.progress << "\n";
}

bool Master::finished() const {
    if (!in_flight_.empty()) return false;
    for (const auto& run : runs_)
        if (!run->written && run->error.empty()) return false;
    return true;
}

double Master::dispatch_seconds() const {
    return first_out_ ? std::chrono::duration<double>(last_in_ - *first_out_).count() : 0.0;
}

int Master::exit_code() const {
    for (const auto& run : runs_) {
        if (!run->error.empty()) return 2;
        if (run->solved && (run->solved->status == "bad-input" || run->solved->status == "unsupported")) return 2;
    }
    return 0;
}

}  // namespace rebirth::cluster
