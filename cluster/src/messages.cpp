#include "rebirth/cluster/messages.h"

#include <cstring>
#include <sstream>

#include <boost/archive/archive_exception.hpp>
#include <boost/archive/binary_iarchive_impl.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/archive/impl/archive_serializer_map.ipp>
#include <boost/archive/impl/basic_binary_iarchive.ipp>
#include <boost/archive/impl/basic_binary_iprimitive.ipp>
#include <boost/serialization/array_optimization.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>

namespace rebirth::cluster {

// Boost's binary_iarchive, except that it refuses a string or collection longer than the
// bytes left in the message before allocating it (a corrupted length must not allocate
// gigabytes), and a bool byte other than 0 or 1. Reads the same format binary_oarchive writes.
class BoundedIArchive : public boost::archive::binary_iarchive_impl<BoundedIArchive, char, std::char_traits<char>> {
    using Base = boost::archive::binary_iarchive_impl<BoundedIArchive, char, std::char_traits<char>>;
    friend class boost::archive::detail::interface_iarchive<BoundedIArchive>;
    friend class boost::archive::basic_binary_iarchive<BoundedIArchive>;
    friend class boost::archive::load_access;
    friend class boost::archive::basic_binary_iprimitive<BoundedIArchive, char, std::char_traits<char>>;

  public:
    // Reads the archive header. Boost asserts (debug builds) when the library version byte
    // after the signature is missing: a header cut short is refused first.
    explicit BoundedIArchive(std::istream& in) : Base(in, 0) {
        if (m_sb.in_avail() < std::streamsize(8 + std::strlen(boost::archive::BOOST_ARCHIVE_SIGNATURE()) + 1))
            throw ProtocolError("archive header cut short");
        init(0);
    }

  private:
    // Throws unless `count` items of at least one byte each fit in the bytes left.
    void check_left(std::uint64_t count, const char* what) {
        const std::streamsize left = m_sb.in_avail();
        if (left < 0 || count > std::uint64_t(left))
            throw ProtocolError(std::string(what) + " of " + std::to_string(count) + " announced with only " +
                                std::to_string(left < 0 ? 0 : left) + " bytes left");
    }

    using Base::load;
    void load(std::string& s) {
        std::uint64_t size = 0;
        load_binary(&size, sizeof size);
        check_left(size, "string");
        s.resize(size);
        if (size > 0) load_binary(s.data(), size);
    }
    void load(bool& b) {
        std::uint8_t byte = 0;
        load_binary(&byte, 1);
        if (byte > 1) throw ProtocolError("bool of value " + std::to_string(byte));
        b = byte == 1;
    }

    template <class T>
    void load_override(T& t) {
        Base::load_override(t);
    }
    void load_override(boost::serialization::collection_size_type& count) {
        Base::load_override(count);
        check_left(std::size_t(count), "collection");
    }
};

}  // namespace rebirth::cluster

// Vectors of numbers (WorkItem::lengths) are written as one block by binary_oarchive's array
// optimization: read them the same way.
BOOST_SERIALIZATION_USE_ARRAY_OPTIMIZATION(rebirth::cluster::BoundedIArchive)

template class boost::archive::basic_binary_iprimitive<rebirth::cluster::BoundedIArchive, char, std::char_traits<char>>;
template class boost::archive::basic_binary_iarchive<rebirth::cluster::BoundedIArchive>;
template class boost::archive::binary_iarchive_impl<rebirth::cluster::BoundedIArchive, char, std::char_traits<char>>;
template class boost::archive::detail::archive_serializer_map<rebirth::cluster::BoundedIArchive>;

namespace boost::serialization {

template <class Archive>
void serialize(Archive& ar, rebirth::Move& m, const unsigned int) {
    std::uint8_t from = m.from, to = m.to, kind = std::uint8_t(m.kind), promotion = m.promotion, rebirth = m.rebirth,
                 rebirth_walk = m.rebirth_walk, extra = m.extra, spare = m.spare;
    ar& from& to& kind& promotion& rebirth& rebirth_walk& extra& spare;
    m.from = rebirth::Square(from);
    m.to = rebirth::Square(to);
    m.kind = rebirth::MoveKind(kind);
    m.promotion = promotion;
    m.rebirth = rebirth::Square(rebirth);
    m.rebirth_walk = rebirth_walk;
    m.extra = rebirth::Square(extra);
    m.spare = spare;
}

template <class Archive>
void serialize(Archive& ar, rebirth::cluster::PathMove& m, const unsigned int) {
    ar& m.move& m.occurrence;
}

template <class Archive>
void serialize(Archive& ar, rebirth::cluster::WorkItem& w, const unsigned int) {
    std::uint8_t kind = std::uint8_t(w.kind);
    ar& w.protocol& w.item_id& w.problem& w.file& w.problem_index& w.file_hash& kind& w.path& w.depth& w
        .budget_seconds& w.threads& w.max_seconds& w.twin& w.phase& w.lengths& w.prefix& w.chunk;
    w.kind = rebirth::cluster::SearchKind(kind);
}

template <class Archive>
void serialize(Archive& ar, rebirth::cluster::ChildCount& c, const unsigned int) {
    ar& c.path& c.nodes;
}

template <class Archive>
void serialize(Archive& ar, rebirth::cluster::ChildFragment& f, const unsigned int) {
    ar& f.path& f.parts& f.nodes& f.seconds& f.timed_out;
}

template <class Archive>
void serialize(Archive& ar, rebirth::cluster::Result& r, const unsigned int) {
    std::uint8_t status = std::uint8_t(r.status);
    ar& r.protocol& r.item_id& r.problem& status& r.nodes& r.done& r.pending& r.error& r.threads& r.seconds& r.text& r
        .solve_status& r.solutions& r.parts& r.timed_out& r.requests& r.fragments& r.proof_lines;
    r.status = rebirth::cluster::Result::Status(status);
}

}  // namespace boost::serialization

namespace rebirth::cluster {

namespace {

constexpr char kMagic[4] = {'R', 'B', 'C', 'L'};

void put_le(std::string& out, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(char((v >> (8 * i)) & 0xff));
}

std::uint64_t get_le(std::string_view in, std::size_t at, int bytes) {
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= std::uint64_t(std::uint8_t(in[at + i])) << (8 * i);
    return v;
}

template <typename T>
std::string to_bytes(const T& value) {
    std::ostringstream out(std::ios::binary);
    {
        boost::archive::binary_oarchive ar(out);
        ar << value;
    }
    return std::move(out).str();
}

// Decodes a whole buffer into `value`; any failure or leftover byte is a ProtocolError.
template <typename T>
T from_bytes(std::string_view bytes, const char* what) {
    T value{};
    std::istringstream in(std::string(bytes), std::ios::binary);
    try {
        BoundedIArchive ar(in);
        ar >> value;
    } catch (const std::exception& e) {
        throw ProtocolError(std::string("malformed ") + what + ": " + e.what());
    }
    if (in.peek() != std::char_traits<char>::eof())
        throw ProtocolError(std::string("malformed ") + what + ": trailing bytes");
    if (value.protocol != kProtocolVersion)
        throw ProtocolError(std::string(what) + " of protocol version " + std::to_string(value.protocol) +
                            ", expected " + std::to_string(kProtocolVersion));
    return value;
}

}  // namespace

std::uint64_t checksum(std::string_view bytes) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : bytes) {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    return h;
}

std::string encode_frame(MsgType type, std::string_view payload) {
    std::string out(kMagic, 4);
    put_le(out, kProtocolVersion, 2);
    put_le(out, std::uint16_t(type), 2);
    put_le(out, payload.size(), 8);
    put_le(out, checksum(payload), 8);
    out.append(payload);
    return out;
}

Frame decode_frame(std::string_view bytes) {
    if (bytes.size() < kFrameHeaderSize)
        throw ProtocolError("truncated message: " + std::to_string(bytes.size()) + " bytes, header needs " +
                            std::to_string(kFrameHeaderSize));
    if (bytes.substr(0, 4) != std::string_view(kMagic, 4))
        throw ProtocolError("not a rebirth-cluster message (bad magic)");
    std::uint64_t version = get_le(bytes, 4, 2);
    if (version != kProtocolVersion)
        throw ProtocolError("message of protocol version " + std::to_string(version) + ", expected " +
                            std::to_string(kProtocolVersion));
    std::uint64_t type = get_le(bytes, 6, 2);
    if (type < std::uint16_t(MsgType::Ready) || type > std::uint16_t(MsgType::Stop))
        throw ProtocolError("unknown message type " + std::to_string(type));
    std::uint64_t length = get_le(bytes, 8, 8);
    if (length != bytes.size() - kFrameHeaderSize)
        throw ProtocolError("truncated message: header announces " + std::to_string(length) + " payload bytes, got " +
                            std::to_string(bytes.size() - kFrameHeaderSize));
    std::string_view payload = bytes.substr(kFrameHeaderSize);
    if (checksum(payload) != get_le(bytes, 16, 8)) throw ProtocolError("corrupted message: checksum mismatch");
    return Frame{MsgType(type), std::string(payload)};
}

std::string serialize(const WorkItem& item) { return to_bytes(item); }
std::string serialize(const Result& result) { return to_bytes(result); }

WorkItem deserialize_work_item(std::string_view bytes) {
    WorkItem item = from_bytes<WorkItem>(bytes, "work item");
    if (item.kind < SearchKind::Perft || item.kind > SearchKind::Cookcheck)
        throw ProtocolError("work item of unknown search kind");
    if (item.kind == SearchKind::Retro && (!item.path.empty() || item.depth < 1 || item.prefix < 0 || item.chunk < 1))
        throw ProtocolError("retro work item with a move path, no prefix length, a negative item number or no chunk");
    if (item.kind != SearchKind::Retro && (item.prefix != 0 || item.chunk != 0))
        throw ProtocolError("work item with a retro item number or chunk but not of kind retro");
    if (item.kind == SearchKind::Noop && !item.path.empty()) throw ProtocolError("noop work item with a move path");
    if (item.kind == SearchKind::Cookcheck && !item.path.empty())
        throw ProtocolError("cook-check work item with a move path");
    if (item.kind == SearchKind::Solve && item.path.size() > 2)
        throw ProtocolError("solve work item with a path of more than two moves");
    if (item.kind != SearchKind::ProofGame && !item.lengths.empty())
        throw ProtocolError("work item with proof-game lengths but not of kind proof game");
    // A proof-game item searches lengths longer than its path, each once, shortest first.
    std::int32_t previous = std::int32_t(item.path.size());
    for (std::int32_t len : item.lengths) {
        if (len <= previous || len > kMaxProofLength)
            throw ProtocolError("proof-game work item with length " + std::to_string(len) + " after " +
                                std::to_string(previous) + " (lengths increase from the path's, at most " +
                                std::to_string(kMaxProofLength) + ")");
        previous = len;
    }
    return item;
}

Result deserialize_result(std::string_view bytes) {
    Result r = from_bytes<Result>(bytes, "result");
    if (r.status < Result::Status::Done || r.status > Result::Status::Proof)
        throw ProtocolError("result of unknown status");
    if (r.status != Result::Status::Solved && (!r.text.empty() || !r.solve_status.empty()))
        throw ProtocolError("result with a solution text but not of status solved");
    if (r.status != Result::Status::Fragment && !r.parts.empty())
        throw ProtocolError("result with fragment parts but not of status fragment");
    if (r.status != Result::Status::Fragment && r.status != Result::Status::Proof && r.timed_out)
        throw ProtocolError("result timed out but not of status fragment or proof");
    if (r.status != Result::Status::Proof && !r.proof_lines.empty())
        throw ProtocolError("result with proof-game lines but not of status proof");
    if (r.timed_out && !r.proof_lines.empty()) throw ProtocolError("timed-out result with proof-game lines");
    for (const std::vector<Path>& lines : r.proof_lines)
        for (const Path& line : lines)
            if (line.empty() || line.size() > std::size_t(kMaxProofLength))
                throw ProtocolError("proof-game line of " + std::to_string(line.size()) + " moves");
    if (r.status != Result::Status::Split && !r.fragments.empty())
        throw ProtocolError("result with reply fragments but not of status split");
    for (const ChildFragment& f : r.fragments)
        if (f.path.size() != 2) throw ProtocolError("reply fragment with a path of other than two moves");
    if (r.status == Result::Status::Solved && r.solve_status.empty())
        throw ProtocolError("solved result without a status");
    if (r.requests > kMaxRequests)
        throw ProtocolError("result asking for " + std::to_string(r.requests) + " items, at most " +
                            std::to_string(kMaxRequests));
    return r;
}

}  // namespace rebirth::cluster
