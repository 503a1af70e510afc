#include "resolved-object-factory.h"

#include "ns3/pointer.h"

#include <cstdlib>
#include <map>

namespace ns3
{

namespace
{

/// A tag handed to CompleteConstruct below: Ptr<T> (its return type) needs Ref and Unref;
/// nothing is counted.
struct UncountedTag
{
    /// \brief Nothing to count.
    void
    Ref() const
    {
    }

    /// \copydoc Ref
    void
    Unref() const
    {
    }
};

/**
 * What ObjectFactory::Create does around ConstructSelf besides setting attributes: the
 * object's TypeId (Object::SetTypeId) and the construction-completed notice. Both are
 * private to Object and open to its friend template CompleteConstruct; the specializations
 * below, for types of this file only, are that friend, called only from DoCreate.
 */
struct ResolvedConstruction : UncountedTag
{
    Object* object; //!< the object just made by its TypeId's constructor
    TypeId tid;     //!< its type
};

/// The last step of ObjectBase::ConstructSelf, through the same friend.
struct CompletedConstruction : UncountedTag
{
    Object* object; //!< the object whose attributes are all set
};

} // namespace

template<>
Ptr<ResolvedConstruction>
CompleteConstruct<ResolvedConstruction>(ResolvedConstruction* c)
{
    c->object->SetTypeId(c->tid);
    return Ptr<ResolvedConstruction>();
}

template<>
Ptr<CompletedConstruction>
CompleteConstruct<CompletedConstruction>(CompletedConstruction* c)
{
    c->object->NotifyConstructionCompleted();
    return Ptr<CompletedConstruction>();
}

ResolvedObjectFactory::ResolvedObjectFactory(const std::string& tid)
{
    m_factory.SetTypeId(tid);
}

void
ResolvedObjectFactory::Set(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value); // checks the name and value as before
    m_set.emplace_back(name, value.Copy());
    m_resolved = false;
    m_values.clear();
}

void
ResolvedObjectFactory::Resolve()
{
    m_resolved = false;
    m_values.clear();
    // ConstructSelf takes a value from NS_ATTRIBUTE_DEFAULT by the attribute's full name:
    // ns-3's own path keeps that.
    const char* env = std::getenv("NS_ATTRIBUTE_DEFAULT");
    if (env != nullptr && env[0] != '\0')
    {
        return;
    }
    // AttributeConstructionList keys values by checker, a later Set replacing an earlier one.
    const TypeId type = m_factory.GetTypeId();
    std::map<const AttributeChecker*, Ptr<const AttributeValue>> given;
    for (const auto& [name, value] : m_set)
    {
        TypeId::AttributeInformation info;
        if (type.LookupAttributeByName(name, &info))
        {
            given[PeekPointer(info.checker)] = value;
        }
    }
    std::vector<std::pair<Ptr<const AttributeAccessor>, Ptr<const AttributeValue>>> values;
    TypeId tid = type;
    do // as ConstructSelf: the type, then each parent up to (without) ObjectBase
    {
        for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            const TypeId::AttributeInformation info = tid.GetAttribute(i);
            if (!(info.flags & TypeId::ATTR_CONSTRUCT))
            {
                continue; // ConstructSelf skips these (and a factory cannot set them)
            }
            const auto it = given.find(PeekPointer(info.checker));
            const Ptr<const AttributeValue> chosen = it != given.end() ? it->second
                                                                       : info.initialValue;
            const Ptr<const AttributeValue> valid = info.checker->CreateValidValue(*chosen);
            if (!valid)
            {
                continue; // ConstructSelf's DoSet fails quietly on it: nothing set
            }
            // A pointer parsed from a string is a new object per ConstructSelf: not shared.
            // (An ObjectPtrContainerValue, as Node's DeviceList, is never set by its accessor.)
            if (dynamic_cast<const PointerValue*>(PeekPointer(valid)))
            {
                return;
            }
            values.emplace_back(info.accessor, valid);
        }
        tid = tid.GetParent();
    } while (tid != ObjectBase::GetTypeId());
    m_values = std::move(values);
    m_constructor = type.GetConstructor();
    m_resolved = true;
}

Ptr<Object>
ResolvedObjectFactory::DoCreate() const
{
    if (!m_resolved)
    {
        return m_factory.Create();
    }
    // ObjectFactory::Create (src/core/model/object-factory.cc) with ConstructSelf's values.
    ObjectBase* base = m_constructor();
    Object* object = dynamic_cast<Object*>(base);
    NS_ASSERT(object != nullptr);
    ResolvedConstruction typed{{}, object, m_factory.GetTypeId()};
    CompleteConstruct(&typed);
    for (const auto& [accessor, value] : m_values)
    {
        accessor->Set(object, *value); // ObjectBase::DoSet on a value already valid
    }
    CompletedConstruction completed{{}, object};
    CompleteConstruct(&completed);
    return Ptr<Object>(object, false);
}

} // namespace ns3
