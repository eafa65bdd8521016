#include "rebirth/solve.h"

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
        case Language::German: return partial ? "Partielle Loesung" : "Loesung beendet.";
        case Language::French: return partial ? "Solution partielle" : "solution terminee.";
        default: return partial ? "Partial solution" : "solution finished.";
    }
}

// Solves one twin (already applied) and appends Popeye's phases to `out`; false when no
// solver handles its stipulation (a one-line message is appended instead).
bool solve_twin(const Problem& tw, int threads, std::string& out, bool& partial) {
    const int line = tw.condition_line ? tw.condition_line : tw.where.line;
    const RuleSet rules = resolve_rules(tw.conditions, tw.where.file, line);
    SetupRules setup_rules;
    setup_rules.require_white_king = !tw.options.no_white_king;
    setup_rules.require_black_king = !tw.options.no_black_king;
    setup_rules.rules = &rules;
    Position pos;
    try {
        pos.set(tw.setup, setup_rules, tw.where.file);
    } catch (const InputError& e) {
        throw InputError(tw.where.file, tw.where.line, e.word(), e.reason());
    }
    SolveContext ctx{tw, rules, pos, goal_from_text(tw.stipulation.goal), threads, &partial};
    const Stipulation::Play play = tw.stipulation.play;
    const bool help_family = tw.stipulation.series || play == Stipulation::Play::Help ||
                             play == Stipulation::Play::HelpSelf || play == Stipulation::Play::HelpReflex;
    std::string text;
    const bool handled = !tw.stipulation.empty() &&
                         (help_family ? solve_help_or_series(ctx, text) : solve_direct(ctx, text));
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

std::string solve_problem(const Problem& p, int threads, bool* all_supported) {
    std::string out;
    bool partial = false;
    bool supported = true;
    const bool zero = !p.twins.empty() && p.twins.front().zero_position;
    if (p.twins.empty()) {
        supported = solve_twin(p, threads, out, partial);
    } else {
        // With ZeroPosition the diagram itself is not solved: twin a) is the first Twin.
        const size_t count = zero ? p.twins.size() : p.twins.size() + 1;
        for (size_t i = 0; i < count; ++i) {
            const Problem tw = apply_twin(p, zero ? i + 1 : i);
            out += "\n" + format_twin_line(p, i) + "\n";
            if (!solve_twin(tw, threads, out, partial)) supported = false;
        }
    }
    if (all_supported) *all_supported = supported;
    if (!supported) return out + "\n";
    return out + "\n" + finished_text(p.language, partial) + "\n\n\n";
}

}  // namespace rebirth
