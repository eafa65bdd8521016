// libFuzzer target: the MPI frame decoder and the message decoders (issue 10). Malformed
// input must end in ProtocolError; any other exception, a sanitizer report or a hang is a
// bug. Each input is decoded as a frame (and its payload as the frame's message) and, as
// is, as a work item and as a result; what decodes must encode into bytes that decode.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "rebirth/cluster/messages.h"

namespace rebirth::cluster {
namespace {

// Decodes `bytes` as a work item; a decoded item must survive its own encoding.
void work_item(std::string_view bytes) {
    WorkItem item;
    try {
        item = deserialize_work_item(bytes);
    } catch (const ProtocolError&) {
        return;
    }
    deserialize_work_item(serialize(item));
}

// Decodes `bytes` as a result; a decoded result must survive its own encoding.
void result(std::string_view bytes) {
    Result r;
    try {
        r = deserialize_result(bytes);
    } catch (const ProtocolError&) {
        return;
    }
    deserialize_result(serialize(r));
}

}  // namespace
}  // namespace rebirth::cluster

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace rebirth::cluster;
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    try {
        const Frame frame = decode_frame(bytes);
        if (frame.type == MsgType::Work) work_item(frame.payload);
        if (frame.type == MsgType::Result) result(frame.payload);
    } catch (const ProtocolError&) {
    }
    work_item(bytes);
    result(bytes);
    return 0;
}
