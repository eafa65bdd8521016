#include "rebirth/bitboard.h"

#include <mutex>
#include <vector>

namespace rebirth {

namespace detail {
Magic rook_magics[SQUARE_NB];
Magic bishop_magics[SQUARE_NB];
Bitboard pawn_attacks[COLOR_NB][SQUARE_NB];
Bitboard knight_attacks[SQUARE_NB];
Bitboard king_attacks[SQUARE_NB];
Bitboard between[SQUARE_NB][SQUARE_NB];
Bitboard line[SQUARE_NB][SQUARE_NB];

unsigned Magic::index(Bitboard occupied) const {
    return unsigned(((occupied & mask) * magic) >> shift);
}
}  // namespace detail

namespace {

struct Dir {
    int df, dr;
};
constexpr Dir kRookDirs[4] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr Dir kBishopDirs[4] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// Slider attacks from s along dirs, stopping at (and including) the first occupied square.
Bitboard slide(Square s, const Dir (&dirs)[4], Bitboard occupied) {
    Bitboard attacks = 0;
    for (const Dir& d : dirs) {
        int f = file_of(s) + d.df, r = rank_of(s) + d.dr;
        while (on_board(f, r)) {
            Square t = make_square(f, r);
            attacks |= square_bb(t);
            if (occupied & square_bb(t)) break;
            f += d.df;
            r += d.dr;
        }
    }
    return attacks;
}

Bitboard leap(Square s, std::initializer_list<Dir> dirs) {
    Bitboard b = 0;
    for (const Dir& d : dirs) {
        int f = file_of(s) + d.df, r = rank_of(s) + d.dr;
        if (on_board(f, r)) b |= square_bb(make_square(f, r));
    }
    return b;
}

// xorshift64*: deterministic magic search.
struct Prng {
    std::uint64_t s;
    std::uint64_t next() {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 2685821657736338717ULL;
    }
    std::uint64_t sparse() { return next() & next() & next(); }
};

std::vector<Bitboard> rook_table(0x19000);
std::vector<Bitboard> bishop_table(0x1480);

// Finds a magic for every square by trial and fills the shared attack table.
void init_magics(detail::Magic (&magics)[SQUARE_NB], std::vector<Bitboard>& table, const Dir (&dirs)[4]) {
    Prng rng{0x9E3779B97F4A7C15ULL};
    std::vector<Bitboard> occupancy(4096), reference(4096);
    std::vector<int> epoch(4096, 0);
    int current = 0;
    size_t offset = 0;
    for (int si = 0; si < SQUARE_NB; ++si) {
        Square s = Square(si);
        Bitboard edges = ((rank_bb(0) | rank_bb(7)) & ~rank_bb(rank_of(s))) |
                         ((file_bb(0) | file_bb(7)) & ~file_bb(file_of(s)));
        detail::Magic& m = magics[s];
        m.mask = slide(s, dirs, 0) & ~edges;
        int bits = popcount(m.mask);
        m.shift = 64 - bits;
        m.attacks = table.data() + offset;
        int size = 0;
        Bitboard b = 0;
        do {
            occupancy[size] = b;
            reference[size] = slide(s, dirs, b);
            ++size;
            b = (b - m.mask) & m.mask;
        } while (b);
        Bitboard* entries = table.data() + offset;
        for (;;) {
            do m.magic = rng.sparse();
            while (popcount((m.magic * m.mask) >> 56) < 6);
            ++current;
            bool ok = true;
            for (int i = 0; i < size && ok; ++i) {
                unsigned idx = m.index(occupancy[i]);
                if (epoch[idx] < current) {
                    epoch[idx] = current;
                    entries[idx] = reference[i];
                } else if (entries[idx] != reference[i]) {
                    ok = false;
                }
            }
            if (ok) break;
        }
        offset += size_t(1) << bits;
    }
}

void init_all() {
    using detail::between;
    using detail::line;
    for (int si = 0; si < SQUARE_NB; ++si) {
        Square s = Square(si);
        detail::pawn_attacks[WHITE][s] = leap(s, {{-1, 1}, {1, 1}});
        detail::pawn_attacks[BLACK][s] = leap(s, {{-1, -1}, {1, -1}});
        detail::knight_attacks[s] = leap(s, {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}});
        detail::king_attacks[s] = leap(s, {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}});
    }
    init_magics(detail::rook_magics, rook_table, kRookDirs);
    init_magics(detail::bishop_magics, bishop_table, kBishopDirs);
    for (int a = 0; a < SQUARE_NB; ++a)
        for (int b = 0; b < SQUARE_NB; ++b) {
            Square sa = Square(a), sb = Square(b);
            between[a][b] = line[a][b] = 0;
            if (a == b) continue;
            for (const auto* dirs : {&kRookDirs, &kBishopDirs}) {
                if (slide(sa, *dirs, 0) & square_bb(sb)) {
                    line[a][b] = (slide(sa, *dirs, 0) & slide(sb, *dirs, 0)) | square_bb(sa) | square_bb(sb);
                    between[a][b] = slide(sa, *dirs, square_bb(sb)) & slide(sb, *dirs, square_bb(sa));
                }
            }
        }
}

}  // namespace

void init_bitboards() {
    static std::once_flag once;
    std::call_once(once, init_all);
}

}  // namespace rebirth
