// libFuzzer target: the Popeye input reader (issue 10), Strict and Recover, every twin of
// every problem set up and played one ply, and the first line read as condition words.
// Bad input must end in InputError; any other exception, a sanitizer report or a hang is
// a bug.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rebirth/error.h"
#include "rebirth/perft.h"
#include "rebirth/popeye_input.h"
#include "rebirth/position.h"
#include "rebirth/rules.h"

namespace rebirth {
namespace {

// Loads a twin as `rebirth solve` does (rules, then the diagram) and plays its first moves
// with the consistency check. InputError is the expected way to refuse it.
void load_and_play(const Problem& tw) {
    const int line = tw.condition_line ? tw.condition_line : tw.where.line;
    const RuleSet rules = resolve_rules(tw.conditions, tw.where.file, line);
    SetupRules setup_rules;
    setup_rules.require_white_king = !tw.options.no_white_king;
    setup_rules.require_black_king = !tw.options.no_black_king;
    setup_rules.rules = &rules;
    Position pos;
    pos.set(tw.setup, setup_rules, tw.where.file);
    perft_checked(pos, 1);
}

// Every twin of every problem read without error.
void exercise(const std::vector<Problem>& problems) {
    for (const Problem& p : problems) {
        if (p.error) continue;
        for (size_t i = 0; i <= p.twins.size(); ++i) {
            try {
                load_and_play(apply_twin(p, i));
            } catch (const InputError&) {
            }
        }
    }
}

}  // namespace
}  // namespace rebirth

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace rebirth;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        parse_popeye(text, "fuzz.inp", ParseMode::Strict);
    } catch (const InputError&) {
    }
    // The first line as the words of `rebirth perft --condition`.
    try {
        resolve_rules(parse_condition_words(text.substr(0, text.find('\n')), "--condition"), "--condition");
    } catch (const InputError&) {
    }
    std::vector<Problem> problems;
    try {
        problems = parse_popeye(text, "fuzz.inp", ParseMode::Recover);
    } catch (const InputError&) {
        return 0;
    }
    exercise(problems);
    return 0;
}
