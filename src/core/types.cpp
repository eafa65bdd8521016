#include "rebirth/types.h"

#include <cctype>

namespace rebirth {

std::string square_name(Square s) {
    if (!is_ok(s)) return "-";
    return std::string{char('a' + file_of(s)), char('1' + rank_of(s))};
}

Square parse_square(std::string_view text) {
    if (text.size() != 2) return SQ_NONE;
    int f = std::tolower(static_cast<unsigned char>(text[0])) - 'a';
    int r = text[1] - '1';
    if (!on_board(f, r)) return SQ_NONE;
    return make_square(f, r);
}

}  // namespace rebirth
