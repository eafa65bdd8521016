#include "rebirth/solve.h"

#include <chrono>
#include <sstream>
#include <string_view>

#include "rebirth/error.h"
#include "rebirth/goal.h"
#include "rebirth/popeye_input.h"
#include "rebirth/popeye_output.h"
#include "rebirth/position.h"
#include "rebirth/rules.h"
#include "solve_internal.h"

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

// Solves one twin (already applied) and appends Popeye's phases to `out`; false when no
// solver handles its stipulation (a one-line message is appended instead).
bool solve_twin(const Problem& tw, int threads, std::string& out, bool& partial, SearchControl* control) {
    const int line = tw.condition_line ? tw.condition_line : tw.where.line;
    const RuleSet rules = resolve_rules(tw.conditions, tw.where.file, line);
    SetupRules setup_rules;
    setup_rules.require_white_king = !tw.options.no_white_king;
    setup_rules.require_black_king = !tw.options.no_black_king;
    setup_rules.rules = &rules;
    Position pos;
    // Proof games play from the game array or position a; their diagram is only the target.
    const bool proof =
        tw.stipulation.play == Stipulation::Play::ProofGame || tw.stipulation.play == Stipulation::Play::AToB;
    try {
        pos.set(proof ? proof_start_setup(tw) : tw.setup, setup_rules, tw.where.file);
    } catch (const InputError& e) {
        throw InputError(tw.where.file, tw.where.line, e.word(), e.reason());
    }
    SolveContext ctx{tw, rules, pos, goal_from_text(tw.stipulation.goal), threads, &partial, control};
    const Stipulation::Play play = tw.stipulation.play;
    const bool help_family = tw.stipulation.series || play == Stipulation::Play::Help ||
                             play == Stipulation::Play::HelpSelf || play == Stipulation::Play::HelpReflex;
    std::string text;
    const bool handled = !tw.stipulation.empty() && (proof         ? solve_proof_game(ctx, text)
                                                     : help_family ? solve_help_or_series(ctx, text)
                                                                   : solve_direct(ctx, text));
    if (!handled) {
        out += "\nrebirth: " + tw.where.file + ":" + std::to_string(tw.where.line) + ": stipulation " +
               (tw.stipulation.text.empty() ? std::string("(none)") : tw.stipulation.text) +
               " is not supported yet: the problem was not solved\n";
        return false;
    }
    out += text;
    return true;
}

}  // namespace

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
    if (limits.max_seconds > 0) {
        control.has_deadline = true;
        control.deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                       std::chrono::duration<double>(limits.max_seconds));
    }
    std::string out;
    bool partial = false;
    const bool zero = !p.twins.empty() && p.twins.front().zero_position;
    // With ZeroPosition the diagram itself is not solved: twin a) is the first Twin.
    const size_t count = p.twins.empty() ? 1 : (zero ? p.twins.size() : p.twins.size() + 1);
    try {
        for (size_t i = 0; i < count; ++i) {
            const size_t before = out.size();
            if (p.twins.empty()) {
                report.supported = solve_twin(p, threads, out, partial, &control) && report.supported;
            } else {
                const Problem tw = apply_twin(p, zero ? i + 1 : i);
                out.append("\n").append(format_twin_line(p, i)).append("\n");
                if (!solve_twin(tw, threads, out, partial, &control)) report.supported = false;
            }
            report.twin_solutions.push_back(count_solutions(out.substr(before)));
        }
    } catch (const SearchStopped&) {
        report.timed_out = true;
        std::ostringstream msg;
        msg << "\nrebirth: time limit of " << limits.max_seconds << " s reached: the search was stopped\n";
        out += msg.str();
        partial = true;
    }
    report.partial = partial;
    for (int n : report.twin_solutions) report.solutions += n;
    report.nodes = control.nodes->load() - nodes_before;
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::string closing = finished_text(p.language, partial);
    if (limits.show_time) {
        std::ostringstream t;
        t.setf(std::ios::fixed);
        t.precision(3);
        t << time_word(p.language) << report.seconds << " s";
        closing += t.str();
    }
    report.text = report.supported ? out + "\n" + closing + "\n\n\n" : out + "\n";
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

std::string solve_problem(const Problem& p, int threads, bool* all_supported) {
    SolveReport report = solve_problem_report(p, threads, SolveLimits{});
    if (all_supported) *all_supported = report.supported;
    return report.text;
}

}  // namespace rebirth
