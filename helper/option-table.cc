#include "option-table.h"

#include "option-values.h"

#include "ns3/command-line.h"

namespace ns3
{

namespace
{

/// The table reads the arguments itself; CommandLine only prints the help.
bool
AcceptForHelp(std::string)
{
    return true;
}

} // namespace

void
OptionTable::Add(const std::string& name, const std::string& help, std::string& text, Parser parse)
{
    m_rows.push_back({name, help, &text, std::move(parse)});
}

const OptionTable::Row*
OptionTable::Find(const std::string& name) const
{
    for (const auto& row : m_rows)
    {
        if (row.name == name)
        {
            return &row;
        }
    }
    return nullptr;
}

const std::vector<OptionTable::Row>&
OptionTable::Rows() const
{
    return m_rows;
}

void
OptionTable::Register(CommandLine& cmd) const
{
    for (const auto& row : m_rows)
    {
        // CommandLine shows no default for an empty one: say so in the help.
        cmd.AddValue(row.name,
                     row.help,
                     MakeCallback(&AcceptForHelp),
                     row.text->empty() ? std::string("(none)") : *row.text);
    }
}

void
OptionTable::Give(const std::string& name,
                  const std::string& value,
                  std::set<std::string>& given) const
{
    const Row* row = Find(name);
    if (!given.insert(name).second)
    {
        throw OptionError("--" + name +
                          ": given more than once; allowed: once (a list option takes "
                          "comma-separated values)");
    }
    OptionValues::CheckText(value, "--" + name);
    *row->text = value;
}

void
OptionTable::ParseAll() const
{
    for (const auto& row : m_rows)
    {
        row.parse(*row.text);
    }
}

std::vector<std::pair<std::string, std::string>>
OptionTable::Used() const
{
    std::vector<std::pair<std::string, std::string>> used;
    for (const auto& row : m_rows)
    {
        used.emplace_back(row.name, *row.text);
    }
    return used;
}

} // namespace ns3
