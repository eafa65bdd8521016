// libFuzzer target: the FEN and Popeye Forsyth readers (issue 10), and a position built from
// each FEN they accept. Bad input must end in InputError; anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "rebirth/error.h"
#include "rebirth/perft.h"
#include "rebirth/position.h"
#include "rebirth/setup.h"

namespace rebirth {
namespace {

// Sets up the FEN's position (with and without the king checks) and plays its moves with
// the consistency check: two plies when there are few first moves, else one (speed).
void play(const Setup& setup) {
    for (const bool kings : {true, false}) {
        SetupRules rules;
        rules.require_white_king = kings;
        rules.require_black_king = kings;
        try {
            Position pos(setup, rules, "<fen>");
            perft_checked(pos, perft_checked(pos, 1) <= 16 ? 2 : 1);
        } catch (const InputError&) {
        }
    }
}

}  // namespace
}  // namespace rebirth

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace rebirth;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const Setup setup = parse_fen(text);
        to_fen(setup);
        play(setup);
    } catch (const InputError&) {
    }
    for (const Language lang : {Language::English, Language::French, Language::German}) {
        try {
            to_forsyth(parse_forsyth(text, "<forsyth>", 1, lang), lang);
        } catch (const InputError&) {
        }
    }
    return 0;
}
