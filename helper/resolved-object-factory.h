/*
 * ResolvedObjectFactory: an ObjectFactory that settles each attribute's value once, not once
 * per object. ns-3.37's ObjectBase::ConstructSelf (src/core/model/object-base.cc) walks, for
 * every object it constructs, every attribute of its type and parents: it copies the
 * attribute's TypeId::AttributeInformation (strings included), builds the attribute's full
 * name to look it up in NS_ATTRIBUTE_DEFAULT, serializes the value for its debug log (Debian's
 * ns-3 is built with NS3_LOG_ENABLE) and validates a fresh copy of it. At 8,192 hosts
 * (fattree:k=32: 49,152 devices, 24,576 channels, 9,472 tables, 1,280 switches) that was
 * 3.4 G of the 4.7 G instructions of ParamsyncHelper::Install. None of it depends on the
 * object: this factory resolves (factory value, else the type's current default) and
 * validates each attribute once, then gives every new object the same values through the
 * same accessors, in ConstructSelf's order (the type's own attributes, then its parents').
 *
 * Types with a PointerValue attribute (ns-3 would parse a string into a new object for each
 * object) and an NS_ATTRIBUTE_DEFAULT environment take ns-3's own path, ObjectFactory::Create.
 */
#ifndef PARAMSYNC_RESOLVED_OBJECT_FACTORY_H
#define PARAMSYNC_RESOLVED_OBJECT_FACTORY_H

#include "ns3/object-factory.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \brief An ns-3 ObjectFactory whose attribute values are resolved once (at Resolve) and
 * applied to each new object directly: the objects ObjectFactory::Create would make, at a
 * fraction of its cost per object.
 */
class ResolvedObjectFactory
{
  public:
    /// \brief A factory of objects of type tid (by name, as ObjectFactory::SetTypeId).
    explicit ResolvedObjectFactory(const std::string& tid);

    /// \brief As ObjectFactory::Set (aborts on an unknown name or invalid value, as it does);
    /// takes effect at the next Resolve.
    void Set(const std::string& name, const AttributeValue& value);

    /// \brief The equivalent ns-3 factory (the same type and attributes).
    const ObjectFactory&
    Factory() const
    {
        return m_factory;
    }

    /**
     * \brief Settles every constructible attribute's value: the last Set value, else the
     * type's default as it is now (Config::SetDefault included). Create uses these values
     * until the next Resolve.
     */
    void Resolve();

    /// \brief Whether Create takes the resolved path (after Resolve; false: ObjectFactory).
    bool
    IsResolved() const
    {
        return m_resolved;
    }

    /// \brief A new object, as ObjectFactory::Create<T> makes it.
    template<typename T>
    Ptr<T>
    Create() const
    {
        return DoCreate()->GetObject<T>();
    }

  private:
    /// \brief A new object of the type with the resolved values (or ObjectFactory's).
    Ptr<Object> DoCreate() const;

    ObjectFactory m_factory; //!< the same type and attributes, for the fallback and callers
    std::vector<std::pair<std::string, Ptr<const AttributeValue>>> m_set; //!< Set, in order
    bool m_resolved{false}; //!< Resolve found no PointerValue and no NS_ATTRIBUTE_DEFAULT
    /// Resolved (accessor, value) per constructible attribute, in ConstructSelf's order.
    std::vector<std::pair<Ptr<const AttributeAccessor>, Ptr<const AttributeValue>>> m_values;
    Callback<ObjectBase*> m_constructor; //!< the type's constructor (TypeId::GetConstructor)
};

} // namespace ns3

#endif // PARAMSYNC_RESOLVED_OBJECT_FACTORY_H
