// Placeholder so the target builds; filled by its issue.
public enum FormdServiceModule {}
