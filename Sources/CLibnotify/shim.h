// The part of libnotify's C interface (libnotify.so.4, stable since 0.7) that
// MIGA calls, declared here so that no GLib headers are needed to build.
// The functions are looked up with dlsym; these are their types.
#ifndef MIGA_CLIBNOTIFY_SHIM_H
#define MIGA_CLIBNOTIFY_SHIM_H

#include <stdint.h>

typedef int gboolean;
typedef void *gpointer;
typedef struct _NotifyNotification NotifyNotification;

/// GLib's GError, as libnotify fills it in.
typedef struct _GError {
    uint32_t domain;
    int code;
    char *message;
} GError;

typedef enum {
    NOTIFY_URGENCY_LOW,
    NOTIFY_URGENCY_NORMAL,
    NOTIFY_URGENCY_CRITICAL,
} NotifyUrgency;

typedef gboolean (*notify_is_initted_fn)(void);
typedef gboolean (*notify_init_fn)(const char *app_name);
typedef NotifyNotification *(*notify_notification_new_fn)(const char *summary, const char *body, const char *icon);
typedef void (*notify_notification_set_urgency_fn)(NotifyNotification *notification, NotifyUrgency urgency);
typedef gboolean (*notify_notification_show_fn)(NotifyNotification *notification, GError **error);
typedef gboolean (*notify_get_server_info_fn)(char **name, char **vendor, char **version, char **spec_version);
typedef void (*g_error_free_fn)(GError *error);
typedef void (*g_free_fn)(gpointer memory);
typedef void (*g_object_unref_fn)(gpointer object);

#endif
