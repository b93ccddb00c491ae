; Tags for Objective-C (tags convention: @name.definition.*, @definition.*, @name.reference.*, @import.*).
; Loaded after c.scm (see languages.ts), which tags the C layer (functions, structs, typedefs, macros, globals,
; calls, types, includes). A method is named by the first keyword of its selector (`initWithCapacity:` is
; `initWithCapacity`); methods in an @implementation or a category name their class with @container (`Store.sharedStore`).

(class_interface !category . (identifier) @name.definition.class) @definition.class
(protocol_declaration . (identifier) @name.definition.protocol) @definition.protocol
(method_declaration (method_type) . (identifier) @name.definition.method) @definition.method
(method_declaration . (identifier) @name.definition.method) @definition.method
(class_interface . (identifier) @container category: (_)
  (method_declaration (method_type) . (identifier) @name.definition.method) @definition.method)
(class_implementation . (identifier) @container
  (implementation_definition (method_definition (method_type) . (identifier) @name.definition.method) @definition.method))
(class_implementation . (identifier) @container
  (implementation_definition (method_definition . (identifier) @name.definition.method) @definition.method))
(property_declaration (struct_declaration (struct_declarator [
  (identifier) @name.definition.field
  (pointer_declarator declarator: (identifier) @name.definition.field)]))) @definition.field


; References beyond the C layer: messages; `[X alloc]`/`[X new]` instantiate X; superclasses and protocols.
(message_expression method: (identifier) @name.reference.call)
(message_expression receiver: (identifier) @name.reference.class method: (identifier) @_m (#match? @_m "^(alloc|new)$"))
(message_expression receiver: (identifier) @name.reference.type (#match? @name.reference.type "^[A-Z]"))
(class_interface superclass: (identifier) @name.reference.class)
(class_interface (parameterized_arguments (type_name (type_identifier) @name.reference.implementation)))
(protocol_reference_list (identifier) @name.reference.implementation)

(module_import path: (_) @import.source)
