#include "rebirth/bitboard.h"

#include <array>
#include <bit>
#include <mutex>

namespace rebirth {

namespace detail {
Magic rook_magics[SQUARE_NB];
Magic bishop_magics[SQUARE_NB];
Bitboard pawn_attacks[COLOR_NB][SQUARE_NB];
Bitboard knight_attacks[SQUARE_NB];
Bitboard king_attacks[SQUARE_NB];
Bitboard between[SQUARE_NB][SQUARE_NB];
Bitboard line[SQUARE_NB][SQUARE_NB];

unsigned Magic::index(Bitboard occupied) const { return unsigned(((occupied & mask) * magic) >> shift); }
}  // namespace detail

namespace {

struct Dir {
    int df, dr;
};
constexpr Dir kRookDirs[4] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr Dir kBishopDirs[4] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

Bitboard leap(Square s, std::initializer_list<Dir> dirs) {
    Bitboard b = 0;
    for (const Dir& d : dirs) {
        int f = file_of(s) + d.df, r = rank_of(s) + d.dr;
        if (on_board(f, r)) b |= square_bb(make_square(f, r));
    }
    return b;
}

// Magics found once by a trial search (xorshift64* sparse candidates); make_magic_table
// checks each at compile time.
constexpr std::uint64_t kRookMagics[SQUARE_NB] = {
    0x1080004008801020ULL, 0x0840092002c03000ULL, 0x1900200010400900ULL, 0x0880100008000480ULL, 0x4200100420080200ULL,
    0x8100020100080400ULL, 0x0200040110886200ULL, 0x0200008040220411ULL, 0x0404800084400220ULL, 0x0000401000402000ULL,
    0x0086001081220440ULL, 0x0408800800100280ULL, 0x000a001201040820ULL, 0x8848800200840080ULL, 0x4001000100040200ULL,
    0x0442000102105084ULL, 0x9080010020804100ULL, 0x0040404000201009ULL, 0x0000808010002009ULL, 0x2200090021d00100ULL,
    0x0008008008040080ULL, 0x0004004002010040ULL, 0x0011040008015042ULL, 0x00000a0001768104ULL, 0x0000800080204009ULL,
    0x2010004140002001ULL, 0x9800200280100080ULL, 0x1000100080080080ULL, 0x0442000a00049020ULL, 0x2100040080020080ULL,
    0x0800120400900148ULL, 0x0010040a00128541ULL, 0x2800804000800030ULL, 0x1010002000400041ULL, 0x4000200011004100ULL,
    0x0610008410800800ULL, 0x0400802402800800ULL, 0xc100020080800400ULL, 0x0002000802000401ULL, 0x0182085882000401ULL,
    0x0220204000808000ULL, 0x2860100040024022ULL, 0x0001002004110040ULL, 0x99101042000a0020ULL, 0x0004080004008080ULL,
    0x0010040002008080ULL, 0x2012004881020004ULL, 0x8300842444820011ULL, 0x0088403882010200ULL, 0x0820400080210100ULL,
    0x0110910040a00300ULL, 0x0801100280080480ULL, 0x0242009008200600ULL, 0x1002000489500200ULL, 0x0040800200010080ULL,
    0x0091800041000080ULL, 0x0000209300488001ULL, 0x04c1002414824001ULL, 0x020020000b001041ULL, 0x7000100004200901ULL,
    0x8002002004100802ULL, 0x30010002084c0007ULL, 0x0888221800813004ULL, 0x4000002840840112ULL,
};
constexpr std::uint64_t kBishopMagics[SQUARE_NB] = {
    0x10102002004a1420ULL, 0x8020040400584008ULL, 0x10510800811201c8ULL, 0x5204042080000088ULL, 0x2204106880000002ULL,
    0x1401042004000000ULL, 0x0400880410042004ULL, 0x0028208200a02020ULL, 0x1500241990010e00ULL, 0x8001200182020a40ULL,
    0x40004101030b0000ULL, 0x8002041042000100ULL, 0x4010011041020038ULL, 0x0000010421044000ULL, 0x1500210808020a00ULL,
    0x8000088400880520ULL, 0x0405004010040100ULL, 0x1005823210040108ULL, 0x2708008102040011ULL, 0x4048200404009100ULL,
    0x0018104101400024ULL, 0x0003000601190101ULL, 0x8004803108491000ULL, 0x8014241200820800ULL, 0x0006e080100c3040ULL,
    0x0501044a11041800ULL, 0x9020300008004045ULL, 0x0894080000220040ULL, 0x1001010083104000ULL, 0x5004030040900080ULL,
    0x000400422c012400ULL, 0x0002128698404812ULL, 0x1010108404900440ULL, 0x0928021182084100ULL, 0x2006080409020024ULL,
    0x1010202020180080ULL, 0xa010008200202200ULL, 0x2098015100019004ULL, 0x0002041440810811ULL, 0x802a02020000b098ULL,
    0x0009015090004060ULL, 0x4000821082081001ULL, 0x0100210040420800ULL, 0x0800004010488a00ULL, 0x2000081104004040ULL,
    0x4c8e029015000082ULL, 0x0420340322224842ULL, 0x1298260043400210ULL, 0x0000822802400008ULL, 0x00008a0101600000ULL,
    0x3040003412080021ULL, 0x3040290220884800ULL, 0x4a1500401041004aULL, 0x8010200282020781ULL, 0x0020203142209091ULL,
    0x0070300600902110ULL, 0x0040808800b62048ULL, 0x0000810400c44420ULL, 0x00080400440c0441ULL, 0x8340080020840411ULL,
    0x0000000104208200ULL, 0x0000800810d00080ULL, 0x0400530411080200ULL, 0x4040702400932244ULL,
};

// The squares from s along d to the board's edge, s excluded.
constexpr Bitboard ray(Square s, Dir d) {
    Bitboard b = 0;
    for (int f = file_of(s) + d.df, r = rank_of(s) + d.dr; on_board(f, r); f += d.df, r += d.dr)
        b |= square_bb(make_square(f, r));
    return b;
}

// Slider attacks from the rays of four directions: along each ray, the ray minus the ray
// beyond the nearest blocker.
struct Rays {
    Bitboard along[4][SQUARE_NB] = {};
    bool up[4] = {};  // the ray goes to higher square indices: the nearest blocker is the lowest

    constexpr explicit Rays(const Dir (&dirs)[4]) {
        for (int i = 0; i < 4; ++i) {
            up[i] = dirs[i].dr * 8 + dirs[i].df > 0;
            for (int t = 0; t < SQUARE_NB; ++t) along[i][t] = ray(Square(t), dirs[i]);
        }
    }
    constexpr Bitboard attacks(Square s, Bitboard occupied) const {
        Bitboard a = 0;
        for (int i = 0; i < 4; ++i) {
            Bitboard r = along[i][s];
            if (Bitboard blockers = r & occupied) {
                const int nearest = up[i] ? std::countr_zero(blockers) : 63 - std::countl_zero(blockers);
                r ^= along[i][nearest];
            }
            a |= r;
        }
        return a;
    }
};

// One slider's magic tables, made at compile time: per square its relevant occupancy mask
// (the rays less their last square), its offset into `attacks`, and the attacks of every
// subset of the mask at the index its magic gives. `ok`: no two subsets with different
// attacks share an index.
template <std::size_t N>
struct MagicTable {
    std::array<Bitboard, N> attacks{};
    std::array<Bitboard, SQUARE_NB> mask{};
    std::array<unsigned, SQUARE_NB> offset{};
    bool ok = true;
};

template <std::size_t N>
constexpr MagicTable<N> make_magic_table(const Dir (&dirs)[4], const std::uint64_t (&magics)[SQUARE_NB]) {
    MagicTable<N> t;
    const Rays rays(dirs);
    std::size_t offset = 0;
    for (int si = 0; si < SQUARE_NB; ++si) {
        const Square s = Square(si);
        Bitboard mask = 0;
        for (int i = 0; i < 4; ++i) {
            const Bitboard r = rays.along[i][s];
            if (r) mask |= r & ~square_bb(Square(rays.up[i] ? 63 - std::countl_zero(r) : std::countr_zero(r)));
        }
        const int bits = std::popcount(mask);
        t.mask[s] = mask;
        t.offset[s] = unsigned(offset);
        Bitboard b = 0;
        do {
            // A slider always attacks some square: an entry still 0 is unused.
            const unsigned idx = unsigned(((b & mask) * magics[s]) >> (64 - bits));
            const Bitboard attacks = rays.attacks(s, b);
            if (t.attacks[offset + idx] == 0)
                t.attacks[offset + idx] = attacks;
            else if (t.attacks[offset + idx] != attacks)
                t.ok = false;
            b = (b - mask) & mask;
        } while (b);
        offset += std::size_t(1) << bits;
    }
    if (offset != N) t.ok = false;
    return t;
}

// In the binary's read-only data: no start-up cost but the pages first read.
constexpr auto kRookTable = make_magic_table<0x19000>(kRookDirs, kRookMagics);
constexpr auto kBishopTable = make_magic_table<0x1480>(kBishopDirs, kBishopMagics);
static_assert(kRookTable.ok && kBishopTable.ok, "a slider magic does not index its attacks");

template <std::size_t N>
void init_magics(detail::Magic (&magics)[SQUARE_NB], const MagicTable<N>& table,
                 const std::uint64_t (&known)[SQUARE_NB]) {
    for (int s = 0; s < SQUARE_NB; ++s)
        magics[s] = {table.mask[s], known[s], table.attacks.data() + table.offset[s],
                     unsigned(64 - std::popcount(table.mask[s]))};
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
    init_magics(detail::rook_magics, kRookTable, kRookMagics);
    init_magics(detail::bishop_magics, kBishopTable, kBishopMagics);
    // Along each of the eight directions from a: the whole line through a, and the squares
    // passed on the way to each square b (zero for squares not aligned).
    for (int a = 0; a < SQUARE_NB; ++a)
        for (const auto* dirs : {&kRookDirs, &kBishopDirs})
            for (const Dir& d : *dirs) {
                const Square sa = Square(a);
                const Bitboard whole = ray(sa, d) | ray(sa, {-d.df, -d.dr}) | square_bb(sa);
                Bitboard passed = 0;
                for (int f = file_of(sa) + d.df, r = rank_of(sa) + d.dr; f >= 0 && f < 8 && r >= 0 && r < 8;
                     f += d.df, r += d.dr) {
                    const Square b = make_square(f, r);
                    line[a][b] = whole;
                    between[a][b] = passed;
                    passed |= square_bb(b);
                }
            }
}

}  // namespace

void init_bitboards() {
    static std::once_flag once;
    std::call_once(once, init_all);
}

}  // namespace rebirth
