#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "rebirth/error.h"
#include "rebirth/popeye_input.h"
#include "rebirth/retractor.h"
#include "rebirth/retro.h"
#include "rebirth/retro_certificate.h"
#include "rebirth/retro_problem.h"
#include "rebirth/rules.h"
#include "rebirth/setup.h"

namespace rebirth::cli {

// "What were the last N single moves?" (N = 1: "which was the last move?") on a FEN: each
// side asked (--side, or both as janko's type A asks) and its retraction sequences that
// possible_last_moves does not refute, the last move first (N = 1 also with its type).
namespace {

// A defensive retractor on the FEN (White moved last): the keys with every line of play, or
// one JSON line {id, verdict, solutions (per key its retraction), lines, stipulation, type}.
int run_retractor(const RetroArgs& args, const Setup& diagram, const RuleSet* rules) {
    RetractorSpec spec;
    if (!parse_retractor_stipulation(args.retractor, spec.retractions, spec.aim))
        throw InputError("--retractor", 0, args.retractor, "a defensive retractor is -n & #1, -n & s#1 or -n & =1:");
    spec.type = args.hoeg ? RetractorType::Hoeg : RetractorType::Proca;
    if (!args.type.empty()) {
        const std::string t = args.type;
        if (args.hoeg && t != "hoeg") throw InputError("--type", 0, t, "contradicts --hoeg:");
        if (t == "proca")
            spec.type = RetractorType::Proca;
        else if (t == "hoeg")
            spec.type = RetractorType::Hoeg;
        else if (t == "klan")
            spec.type = RetractorType::Klan;
        else if (t == "pacific")
            spec.type = RetractorType::Pacific;
        else
            throw InputError("--type", 0, t, "a retractor type is proca, hoeg, klan or pacific:");
    }
    spec.forward_defence = !args.no_forward_defence;
    spec.depth = args.depth;
    spec.max_seconds = args.max_seconds;
    const RetractorAnswer answer = solve_retractor(diagram, spec, rules, args.threads);
    if (!args.json) {
        std::cout << retractor_stipulation(spec.retractions, spec.aim) << " (" << retractor_type_name(spec.type) << ")"
                  << (spec.forward_defence ? "" : ", no forward defence") << "\n"
                  << retractor_text(answer);
        return kExitOk;
    }
    nlohmann::json keys = nlohmann::json::array(), lines = nlohmann::json::array();
    for (const RetractorStep& key : answer.keys) {
        keys.push_back(nlohmann::json::array({key.text}));
        for (const std::vector<std::string>& line : retractor_lines(key)) lines.push_back(line);
    }
    nlohmann::json unresolved = nlohmann::json::array();
    for (const RetractorStep& u : answer.unresolved) unresolved.push_back(u.text);
    nlohmann::json j{{"id", args.fen},
                     {"verdict", answer.verdict()},
                     {"solutions", keys},
                     {"lines", lines},
                     {"unresolved", unresolved},
                     {"side", "w"},
                     {"stipulation", retractor_stipulation(spec.retractions, spec.aim)},
                     {"type", retractor_type_name(spec.type)},
                     {"forward_defence", spec.forward_defence},
                     {"timed_out", answer.timed_out},
                     {"depth", args.depth},
                     {"condition", rules ? rules->describe() : std::string("orthodox")}};
    std::cout << j.dump() << "\n";
    return kExitOk;
}

}  // namespace

int run_retro(const RetroArgs& args) {
    if (!args.side.empty() && args.side != "w" && args.side != "b")
        throw InputError("--side", 0, args.side, "the side that moved last is w or b");
    if (args.threads < 0) throw InputError("--threads", 0, std::to_string(args.threads), "threads must be 0 or more");
    Setup diagram = parse_fen(args.fen, "--fen");
    RuleSet rules;
    if (!args.condition.empty()) {
        rules = resolve_rules(parse_condition_words(args.condition, "--condition"), "--condition", 0);
        if (!unmoves_supported(&rules)) throw InputError("--condition", 0, args.condition, retro_unsupported(rules));
        take_last_capture(diagram, rules);  // Parrain: "Circe Parrain LastCapture White Bg4"
    }
    const RuleSet* r = args.condition.empty() ? nullptr : &rules;
    if (!args.retractor.empty()) {
        if (args.last != 1 || !args.side.empty() || args.certify != 0)
            throw InputError("--retractor", 0, args.retractor, "goes with none of --last, --side, --certify:");
        return run_retractor(args, diagram, r);
    }
    if (args.hoeg || !args.type.empty() || args.no_forward_defence || args.max_seconds > 0)
        throw InputError(args.hoeg                 ? "--hoeg"
                         : !args.type.empty()      ? "--type"
                         : args.no_forward_defence ? "--no-forward-defence"
                                                   : "--maxtime",
                         0, "", "applies to --retractor only");
    if (args.certify_long && args.certify == 0)
        throw InputError("--certify-long", 0, "",
                         "goes with --certify P (P half-moves for the exhaustive search first)");
    std::optional<Color> mover;
    if (!args.side.empty()) mover = args.side == "w" ? WHITE : BLACK;
    const LastMovesAnswer answer = last_moves(diagram, args.last, mover, args.depth, r, args.threads);
    // --certify: a proof game for each sequence, checked by replay (retro_certificate.h). Two
    // certified sequences prove the answer is not unique ("multiple"); the only sequence
    // left, certified, is proved possible.
    const std::vector<Condition> conditions =
        args.condition.empty() ? std::vector<Condition>{} : parse_condition_words(args.condition, "--condition");
    const std::vector<std::vector<std::string>> solutions = retro_solutions(answer, r);
    nlohmann::json certificates = nlohmann::json::array();
    std::string certified_text;
    int certified = 0, total = 0;
    for (const LastMovesAnswer::Side& side : answer.sides)
        for (const std::vector<UnMove>& seq : side.sequences) {
            const std::vector<std::string>& texts = solutions[static_cast<size_t>(total++)];
            if (args.certify == 0) continue;
            const auto cert = find_certificate(side.position, seq, conditions, args.certify, args.certify_seconds,
                                               args.threads, 20, args.certify_long);
            if (!cert) {
                certificates.push_back(nullptr);
                continue;
            }
            ++certified;
            const std::string text = certificate_text(*cert, conditions);
            certificates.push_back(text);
            for (const std::string& t : texts) certified_text += "  " + t;
            certified_text += "\n    proof game: " + text + "\n";
        }
    std::string verdict = answer.verdict();
    if (certified >= 2) verdict = "multiple";
    if (args.json) {
        nlohmann::json j{{"id", args.fen},
                         {"verdict", verdict},
                         {"solutions", solutions},
                         {"side", args.side.empty() ? std::string("both") : args.side},
                         {"depth", args.depth},
                         {"condition", args.condition.empty() ? std::string("orthodox") : rules.describe()}};
        if (args.last != 1) j["last"] = args.last;
        if (args.certify > 0) {
            j["condition_words"] = args.condition;  // for rebirth verify
            j["certificates"] = certificates;
            j["certificate"] = total == 1 && certified == 1 ? certificates[0] : nlohmann::json(nullptr);
        }
        std::cout << j.dump() << "\n";
    } else {
        std::string text = retro_text(answer, args.last, r);
        text.erase(text.rfind("verdict: "));
        if (args.certify > 0)
            text += "certified: " + std::to_string(certified) + " of " + std::to_string(total) +
                    " (proof games of at most " + std::to_string(args.certify) + " half-moves" +
                    (args.certify_long ? ", else of any length" : "") + ")\n" + certified_text;
        std::cout << text << "verdict: " << verdict << "\n";
    }
    return kExitOk;
}

}  // namespace rebirth::cli
