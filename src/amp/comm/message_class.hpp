// SPDX-License-Identifier: BSD-3-Clause
// Which kind of traffic an exchange plan carries (ExchangePlan::message_class): each kind has data tags
// of its own (impl/message_tags.hpp), so data that moves once (an AMR step's migration) never shares a
// channel with the exchanges.
#pragma once

namespace amp::comm {

enum class MessageClass { kExchange = 0, kMigration = 1 };

}  // namespace amp::comm
