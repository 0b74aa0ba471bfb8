#include "size_options.h"

namespace hpclab::cli {

SizeOptions::SizeOptions(CLI::App& command, const Catalog& catalog, Values values)
{
    for (const auto& lab : catalog.labs())
        for (const auto& p : lab.params) {
            if (options_.count(p.name)) continue;
            CLI::Option* opt = command.add_option("--" + p.name, values_[p.name], "Size: " + p.help);
            // One value per occurrence, never the next argument's (a lab's id).
            opt->expected(1)->allow_extra_args(false);
            if (values == Values::list) {
                opt->delimiter(',')->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
                opt->description("Sizes: " + p.help + " (a comma-separated list: a sweep)");
            } else {
                opt->multi_option_policy(CLI::MultiOptionPolicy::Throw);  // as a single value
            }
            options_[p.name] = opt;
        }
}

std::map<std::string, std::vector<std::int64_t>> SizeOptions::given() const
{
    std::map<std::string, std::vector<std::int64_t>> out;
    for (const auto& [name, opt] : options_)
        if (opt->count()) out[name] = values_.at(name);
    return out;
}

}  // namespace hpclab::cli
